import { parseCrontab } from "graphile-worker";

// graphile-worker's cron runs in UTC; each line: minute hour day month weekday task.
export const cronItems = parseCrontab(`
* * * * * scheduler__tick
15 * * * * maintenance__cleanup
`);
