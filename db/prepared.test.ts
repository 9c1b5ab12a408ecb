import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../tests/db";
import { createStoryteller, createUser } from "../tests/factories";
import { preparedQuery } from "./prepared";

// A query compiled once answers each call with that call's values, as the query built per call does.
const database = useTestDatabase();

const ownedNames = preparedQuery(["ownerId", "self"], (db, { ownerId, self }: { ownerId: string; self: boolean }) =>
  db
    .selectFrom("storytellers")
    .select("nickname")
    .where("owner_id", "=", ownerId)
    .where("is_self", "=", self)
    .orderBy("nickname")
    .limit(10),
);

describe("preparedQuery", () => {
  it("sends each call's own values, fixed ones kept, on one connection or in a transaction", async () => {
    const [ann, raj] = [await createUser(database.db), await createUser(database.db)];
    await createStoryteller(database.db, { ownerId: ann.id, nickname: "Nani" });
    await createStoryteller(database.db, { ownerId: ann.id, nickname: "Dada" });
    await createStoryteller(database.db, { ownerId: raj.id, nickname: "Ammi" });

    expect(await ownedNames(database.db, { ownerId: ann.id, self: false })).toEqual([
      { nickname: "Dada" },
      { nickname: "Nani" },
    ]);
    expect(await ownedNames(database.db, { ownerId: raj.id, self: false })).toEqual([{ nickname: "Ammi" }]);
    expect(await ownedNames(database.db, { ownerId: raj.id, self: true })).toEqual([]);
    await database.db
      .transaction()
      .execute(async (tx) => expect(await ownedNames(tx, { ownerId: ann.id, self: false })).toHaveLength(2));
  });

  it("gives a value used twice to both places, and refuses one that never reaches the SQL", async () => {
    const owner = await createUser(database.db);
    const nani = await createStoryteller(database.db, { ownerId: owner.id, nickname: "Nani" });
    const twice = preparedQuery(["id"], (db, { id }: { id: string }) =>
      db.selectFrom("storytellers").select("nickname").where("id", "in", [id, id]),
    );
    expect(await twice(database.db, { id: nani.id })).toEqual([{ nickname: "Nani" }]);
    const unused = preparedQuery(["id"], (db, _values: { id: string }) => db.selectFrom("storytellers").select("id"));
    await expect(unused(database.db, { id: nani.id })).rejects.toThrow(/id did not become parameters/);
  });

  it("refuses a date built into the query, which every later call would reuse", async () => {
    const owner = await createUser(database.db);
    const frozen = preparedQuery(["ownerId"], (db, { ownerId }: { ownerId: string }) =>
      db.selectFrom("storytellers").select("id").where("owner_id", "=", ownerId).where("created_at", "<", new Date()),
    );
    await expect(frozen(database.db, { ownerId: owner.id })).rejects.toThrow(/a date was built into the query/);
  });
});
