import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../context";
import { useTestDatabase } from "../db";
import { createAnswer, createSignedInUser, createStoryteller } from "../factories";
import { serveBuild } from "../serve-build";

// Pages get cheaper, never by a cache (decision 040). Two users asking for the same pages at the same
// time each get only their own rows: a page or loader-data cache keyed on the path would fail this.
const database = useTestDatabase();

type Person = { cookie: string; storytellerId: string; marks: string[] };

async function personWithStory(name: string): Promise<Person> {
  const context = makeTestContext(database);
  const me = await createSignedInUser(context, { first_name: name, nickname: name.toLowerCase() });
  const storyteller = await createStoryteller(database.db, {
    ownerId: me.id,
    nickname: `Grandma ${name}`,
    timeZone: "UTC",
    prompts: [{ text: `What did ${name}'s street smell like?`, sentAt: new Date("2026-01-02T10:00:00Z") }],
  });
  await createAnswer(database.db, {
    promptId: storyteller.prompts[0].id,
    storytellerId: storyteller.id,
    transcript: `${name} remembers the jasmine`,
  });
  return { cookie: me.cookie, storytellerId: storyteller.id, marks: [`Grandma ${name}`, `${name}&#x27;s street`] };
}

describe("pages are rendered for the one who asks", () => {
  let base: string;
  let close: () => Promise<void>;
  let people: Person[];
  beforeAll(async () => {
    ({ base, close } = await serveBuild(database));
    people = [await personWithStory("Asha"), await personWithStory("Bhavna")];
  });
  afterAll(() => close());

  it("answers two users' requests for the same pages, at once and in turn, each with their own rows only", async () => {
    const pages = (person: Person) => [
      "/dashboard",
      "/dashboard/timeline",
      "/dashboard/kanban",
      `/dashboard/recipient/${person.storytellerId}`,
    ];
    for (let round = 0; round < 3; round++) {
      // Both users' requests in flight together, in a different order each round.
      const order = round % 2 ? [...people].reverse() : people;
      const answers = await Promise.all(
        order.flatMap((person) =>
          pages(person).flatMap((page) =>
            [page, `${page}.data`].map(async (url) => {
              const response = await fetch(`${base}${url}`, { headers: { Cookie: person.cookie } });
              return { person, url, status: response.status, body: await response.text() };
            }),
          ),
        ),
      );
      for (const { person, url, status, body } of answers) {
        const other = people.find((p) => p !== person)!;
        expect(status, url).toBe(200);
        // The Storyteller's name is on every page, markup or loader data (where ' is not escaped).
        expect(body, url).toContain(person.marks[0]);
        for (const mark of other.marks) expect(body, `${url} shows the other user's ${mark}`).not.toContain(mark);
        expect(body, url).not.toContain(other.marks[1].replace("&#x27;", "'"));
      }
    }
  });

  it("marks every signed-in page private and never cacheable", async () => {
    const [asha] = people;
    for (const page of ["/dashboard", "/dashboard/timeline", "/dashboard/kanban", "/dashboard.data"]) {
      const response = await fetch(`${base}${page}`, { headers: { Cookie: asha.cookie } });
      await response.text();
      expect(response.headers.get("cache-control"), page).toMatch(/private/);
      expect(response.headers.get("cache-control"), page).toMatch(/no-store/);
    }
  });
});
