import { parseCrontab } from "graphile-worker";
import { jobDefinitions, type JobName } from "~/services/jobs.server";

const tries = (name: JobName) => `?max=${jobDefinitions[name].maxAttempts}`;

// graphile-worker's cron runs in UTC; each line: minute hour day month weekday task options.
export const cronItems = parseCrontab(`
* * * * * scheduler__tick ${tries("scheduler__tick")}
15 * * * * maintenance__cleanup ${tries("maintenance__cleanup")}
`);
