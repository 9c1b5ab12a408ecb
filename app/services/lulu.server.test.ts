import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type RecordedRequest, sendJson, startFakeApi } from "../../tests/fake-http-server";
import { createLuluClient, LuluError, type ShippingAddress } from "./lulu.server";

// Lulu's Print API as a local server speaks it: the token endpoint, prices, shipping and print jobs.
const TOKEN_PATH = "/auth/realms/glasstree/protocol/openid-connect/token";
const ADDRESS: ShippingAddress = {
  name: "Asha Verma",
  street1: "12 MG Road",
  city: "Pune",
  postcode: "411001",
  country_code: "IN",
  phone_number: "+919812345678",
};
const BOOK = { pod_package_id: "0600X0900BWSTDCW060UW444MXX", page_count: 24, quantity: 2 };

let servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

type Handler = (request: RecordedRequest, res: ServerResponse) => void;

/** A Lulu stand-in: tokens numbered as they are issued (each for `expiresIn` seconds), then `api`. */
async function lulu(api: Handler, expiresIn = 3600) {
  let issued = 0;
  const server = await startFakeApi((request, res) => {
    if (request.url === TOKEN_PATH) {
      issued++;
      return sendJson(res, 200, { access_token: `token-${issued}`, expires_in: expiresIn, token_type: "Bearer" });
    }
    api(request, res);
  });
  servers.push(server);
  const calls = () => server.requests.filter((request) => request.url !== TOKEN_PATH);
  const tokens = () => server.requests.filter((request) => request.url === TOKEN_PATH);
  return { server, calls, tokens };
}

const config = (url: string) => ({ clientKey: "key", clientSecret: "secret", apiUrl: `${url}/` });

describe("Lulu's Print API client", () => {
  it("gets a client-credentials token, keeps it until shortly before it expires, and renews it on a 401", async () => {
    let revoked = false;
    const { server, calls, tokens } = await lulu((request, res) => {
      if (revoked && request.headers.authorization === "Bearer token-2") {
        revoked = false;
        return sendJson(res, 401, { detail: "expired" });
      }
      sendJson(res, 200, [{ level: "MAIL", cost_excl_tax: "4.99", currency: "USD" }]);
    }, 300);
    let clock = 0;
    const client = createLuluClient(config(server.url), { now: () => clock });
    await client.shippingOptions([BOOK], ADDRESS);
    await client.shippingOptions([BOOK], ADDRESS);
    expect(tokens()).toHaveLength(1);
    expect(tokens()[0].headers.authorization).toBe(`Basic ${Buffer.from("key:secret").toString("base64")}`);
    expect(tokens()[0].body).toBe("grant_type=client_credentials");
    expect(calls().map((call) => call.headers.authorization)).toEqual(["Bearer token-1", "Bearer token-1"]);
    // Five minutes, less the minute's margin: a new token after four.
    clock = 4 * 60_000 + 1;
    await client.shippingOptions([BOOK], ADDRESS);
    expect(tokens()).toHaveLength(2);
    // Revoked mid-order: one new token and the same request again.
    revoked = true;
    const options = await client.shippingOptions([BOOK], ADDRESS);
    expect(options).toEqual([{ level: "MAIL", cost_excl_tax: "4.99", currency: "USD" }]);
    expect(tokens()).toHaveLength(3);
    expect(
      calls()
        .slice(-2)
        .map((call) => call.headers.authorization),
    ).toEqual(["Bearer token-2", "Bearer token-3"]);
  });

  it("asks for the price and the shipping options of the books to an address", async () => {
    const cost = {
      total_cost_excl_tax: "31.20",
      total_cost_incl_tax: "36.82",
      total_tax: "5.62",
      currency: "USD",
      shipping_cost: { total_cost_excl_tax: "9.99", total_cost_incl_tax: "11.79" },
      line_item_costs: [{ total_cost_excl_tax: "21.21", total_cost_incl_tax: "25.03", quantity: 2 }],
    };
    const { server, calls } = await lulu((request, res) =>
      request.url === "/print-job-cost-calculations/"
        ? sendJson(res, 201, cost)
        : sendJson(res, 200, [
            { level: "MAIL", cost_excl_tax: "9.99", currency: "USD", total_days_min: 8, total_days_max: 14 },
            { level: "EXPRESS", cost_excl_tax: "39.00", currency: "USD", total_days_min: 3, total_days_max: 5 },
          ]),
    );
    const client = createLuluClient(config(server.url));
    expect(await client.costs([BOOK], ADDRESS, "MAIL")).toEqual(cost);
    const options = await client.shippingOptions([BOOK], ADDRESS);
    expect(options.map((option) => option.level)).toEqual(["MAIL", "EXPRESS"]);
    const [costCall, shippingCall] = calls();
    expect(costCall).toMatchObject({ method: "POST", url: "/print-job-cost-calculations/" });
    expect(JSON.parse(costCall.body)).toEqual({
      line_items: [BOOK],
      shipping_address: ADDRESS,
      shipping_option: "MAIL",
    });
    expect(shippingCall).toMatchObject({ method: "POST", url: "/shipping-options/" });
    expect(JSON.parse(shippingCall.body)).toEqual({ line_items: [BOOK], shipping_address: ADDRESS, currency: "USD" });
  });

  it("creates a print job with our order id as its external id, gets it and cancels it", async () => {
    const job = {
      id: 7041,
      external_id: "order-1",
      status: { name: "CREATED" },
      line_items: [{ tracking_urls: null, status: { name: "CREATED" } }],
    };
    const { server, calls } = await lulu((request, res) => {
      if (request.method === "PUT") return sendJson(res, 200, { name: "CANCELED" });
      sendJson(res, request.method === "POST" ? 201 : 200, job);
    });
    const client = createLuluClient(config(server.url));
    const created = await client.createPrintJob({
      externalId: "order-1",
      contactEmail: "asha@example.com",
      title: "नानी की कहानियाँ",
      lineItem: { ...BOOK, interiorUrl: "https://heirloom.test/i", coverUrl: "https://heirloom.test/c" },
      address: ADDRESS,
      level: "MAIL",
    });
    expect(created).toEqual(job);
    expect(await client.printJob(7041)).toEqual(job);
    expect(await client.cancelPrintJob(7041)).toEqual({ name: "CANCELED" });
    const [create, get, cancel] = calls();
    expect(JSON.parse(create.body)).toEqual({
      external_id: "order-1",
      contact_email: "asha@example.com",
      line_items: [
        {
          external_id: "order-1",
          title: "नानी की कहानियाँ",
          quantity: 2,
          printable_normalization: {
            pod_package_id: BOOK.pod_package_id,
            interior: { source_url: "https://heirloom.test/i" },
            cover: { source_url: "https://heirloom.test/c" },
          },
        },
      ],
      shipping_address: ADDRESS,
      shipping_level: "MAIL",
    });
    expect(get).toMatchObject({ method: "GET", url: "/print-jobs/7041/" });
    expect(cancel).toMatchObject({ method: "PUT", url: "/print-jobs/7041/status/" });
    expect(JSON.parse(cancel.body)).toEqual({ name: "CANCELED" });
  });

  it("retries a read after a 5xx or a timeout, never a create, and hands back the printer's refusal", async () => {
    let failures = ["503", "slow"];
    const { server, calls } = await lulu((request, res) => {
      if (request.method === "POST") return sendJson(res, 502, { detail: "bad gateway" });
      if (request.method === "PUT") return sendJson(res, 400, { detail: "already in production" });
      const failure = failures.shift();
      if (failure === "503") return sendJson(res, 503, { detail: "busy" });
      if (failure === "slow") return void setTimeout(() => sendJson(res, 200, {}), 400);
      sendJson(res, 200, { id: 1, external_id: "order-2", status: { name: "IN_PRODUCTION" }, line_items: [] });
    });
    const client = createLuluClient(config(server.url), { timeoutMs: 200, backoffMs: 1 });
    expect(await client.printJob(1)).toMatchObject({ status: { name: "IN_PRODUCTION" } });
    expect(calls().filter((call) => call.method === "GET")).toHaveLength(3);

    const create = client.createPrintJob({
      externalId: "order-2",
      contactEmail: "asha@example.com",
      title: "Nani's stories",
      lineItem: { ...BOOK, interiorUrl: "https://heirloom.test/i", coverUrl: "https://heirloom.test/c" },
      address: ADDRESS,
      level: "MAIL",
    });
    await expect(create).rejects.toMatchObject({ status: 502 });
    expect(calls().filter((call) => call.method === "POST")).toHaveLength(1);

    const cancel = client.cancelPrintJob(1);
    await expect(cancel).rejects.toBeInstanceOf(LuluError);
    await expect(cancel).rejects.toMatchObject({ status: 400, body: { detail: "already in production" } });
    expect(calls().filter((call) => call.method === "PUT")).toHaveLength(1);

    // Still failing after every try: the last failure is the answer.
    failures = ["503", "503", "503"];
    await expect(client.printJob(1)).rejects.toMatchObject({ status: 503 });
  });
});
