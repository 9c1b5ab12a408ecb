import { describe, expect, it } from "vitest";
import { makeTestContext, routeArgs } from "../tests/context";
import { CookieJar } from "../tests/cookie-jar";
import { get, outcome, post, signedInUser } from "../tests/dashboard-routes";
import { useTestDatabase } from "../tests/db";
import { signIn } from "../tests/factories";
import { loader } from "./root";
import { action as switchLanguage } from "./routes/resources.language";

const database = useTestDatabase();

const load = (jar: CookieJar, path: string) =>
  outcome(() => loader({ request: get(jar, path), context: makeTestContext(database), params: {}, ...routeArgs }));

describe("one language per person", () => {
  it("a browser that remembers English follows the Hindi she chose on her phone", async () => {
    const user = await signedInUser(database, { language: "en" });
    // The laptop: signed in, in English.
    const laptop = new CookieJar();
    laptop.store(
      new Response(null, { headers: { "Set-Cookie": (await signIn(makeTestContext(database), user.id)).setCookie } }),
    );
    laptop.store(new Response(null, { headers: { "Set-Cookie": "lng=en; Path=/" } }));
    expect(((await load(laptop, "/dashboard")).data as { locale: string }).locale).toBe("en");

    // The phone switches to Hindi: her account says Hindi from now on.
    const switched = await outcome(() =>
      switchLanguage({
        request: post(user.jar, "/resources/language", { lng: "hi", redirectTo: "/dashboard" }),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      }),
    );
    expect(switched.status).toBe(302);

    // The laptop's next page is asked again with the account's language, then shown in it.
    const first = await outcome(() =>
      loader({
        request: get(laptop, "/dashboard/kanban?x=1"),
        context: makeTestContext(database),
        params: {},
        ...routeArgs,
      }).catch((thrown: unknown) => {
        if (thrown instanceof Response) laptop.store(thrown);
        throw thrown;
      }),
    );
    expect(first).toMatchObject({ status: 302, location: "/dashboard/kanban?x=1" });
    expect(((await load(laptop, "/dashboard/kanban?x=1")).data as { locale: string }).locale).toBe("hi");
    // A link's own ?lng= is still that page's language.
    expect(((await load(laptop, "/dashboard?lng=en")).data as { locale: string }).locale).toBe("en");
  });
});
