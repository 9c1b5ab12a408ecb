/**
 * Lulu's Print API (decision 082): the self-hoster's own account (LULU_CLIENT_KEY and
 * LULU_CLIENT_SECRET; LULU_API_URL is its sandbox or production). A client-credentials token is
 * fetched when needed and kept until shortly before it expires; a 401 mid-order fetches a new one
 * once. Reads and price calculations are retried on 5xx and timeouts; creating a print job is not
 * (its caller looks for the job by our external id first, so a retry never makes a second one).
 */

export type LuluConfig = { clientKey: string; clientSecret: string; apiUrl: string };

export type ShippingLevel = "MAIL" | "PRIORITY_MAIL" | "GROUND_HD" | "GROUND_BUS" | "GROUND" | "EXPEDITED" | "EXPRESS";

export type ShippingAddress = {
  name: string;
  street1: string;
  street2?: string;
  city: string;
  state_code?: string;
  postcode: string;
  country_code: string;
  phone_number: string;
};

export type LineItem = { pod_package_id: string; page_count: number; quantity: number };

export type ShippingOption = {
  level: ShippingLevel;
  cost_excl_tax: string;
  currency: string;
  total_days_min?: number;
  total_days_max?: number;
};

export type PrintJobCost = {
  total_cost_excl_tax: string;
  total_cost_incl_tax: string;
  total_tax: string;
  currency: string;
  shipping_cost: { total_cost_excl_tax: string; total_cost_incl_tax: string };
  line_item_costs: { total_cost_excl_tax: string; total_cost_incl_tax: string; quantity: number }[];
};

export type PrintJob = {
  id: number;
  external_id: string | null;
  status: { name: string; messages?: Record<string, unknown> };
  line_items: { tracking_urls?: string[] | null; status?: { name: string; messages?: Record<string, unknown> } }[];
};

export class LuluError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Lulu answered ${status}`);
    this.name = "LuluError";
  }
}

const TOKEN_PATH = "/auth/realms/glasstree/protocol/openid-connect/token";
/** A token is renewed this long before Lulu says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export type LuluClientOptions = {
  now?: () => number;
  timeoutMs?: number;
  /** Tries of a request that may be repeated, and the pause before the second (doubling). */
  attempts?: number;
  backoffMs?: number;
};

export function createLuluClient(config: LuluConfig, options: LuluClientOptions = {}) {
  const { now = Date.now, timeoutMs = 20_000, attempts = 3, backoffMs = 500 } = options;
  const base = config.apiUrl.replace(/\/+$/, "");
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken() {
    if (token && token.expiresAt > now()) return token.value;
    const response = await fetch(`${base}${TOKEN_PATH}`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${config.clientKey}:${config.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null;
    if (!response.ok || !body?.access_token) throw new LuluError(response.status, body);
    token = { value: body.access_token, expiresAt: now() + (body.expires_in ?? 0) * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  }

  async function send(method: string, path: string, body: unknown, renewed = false): Promise<Response> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${await accessToken()}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        "Cache-Control": "no-cache",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Revoked or expired early: one new token, one more try.
    if (response.status === 401 && !renewed) {
      token = null;
      return send(method, path, body, true);
    }
    return response;
  }

  /**
   * A request; when `repeatable` (its repetition changes nothing) it is tried again after a 5xx, a
   * timeout or a dropped connection. A 4xx is the printer's answer and is never repeated.
   */
  async function call<T>(method: string, path: string, body?: unknown, repeatable = true): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let failure: unknown;
      try {
        const response = await send(method, path, body);
        const parsed = (await response.json().catch(() => null)) as unknown;
        if (response.ok) return parsed as T;
        failure = new LuluError(response.status, parsed);
      } catch (error) {
        failure = error;
      }
      if (failure instanceof LuluError && failure.status < 500) throw failure;
      if (!repeatable || attempt >= attempts) throw failure;
      await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
    }
  }

  return {
    /** What the printer charges: print, shipping at `level`, tax, in its currency. */
    costs: (lineItems: LineItem[], address: ShippingAddress, level: ShippingLevel) =>
      call<PrintJobCost>("POST", "/print-job-cost-calculations/", {
        line_items: lineItems,
        shipping_address: address,
        shipping_option: level,
      }),
    /** The speeds the printer ships these books to this address at, with their prices. */
    shippingOptions: (lineItems: LineItem[], address: ShippingAddress, currency = "USD") =>
      call<ShippingOption[]>("POST", "/shipping-options/", {
        line_items: lineItems,
        shipping_address: address,
        currency,
      }),
    /** One print job; `externalId` is our order's id. The printer fetches the files from the URLs. */
    createPrintJob: (job: {
      externalId: string;
      contactEmail: string;
      title: string;
      lineItem: LineItem & { interiorUrl: string; coverUrl: string };
      address: ShippingAddress;
      level: ShippingLevel;
    }) =>
      call<PrintJob>(
        "POST",
        "/print-jobs/",
        {
          external_id: job.externalId,
          contact_email: job.contactEmail,
          line_items: [
            {
              external_id: job.externalId,
              title: job.title,
              quantity: job.lineItem.quantity,
              printable_normalization: {
                pod_package_id: job.lineItem.pod_package_id,
                interior: { source_url: job.lineItem.interiorUrl },
                cover: { source_url: job.lineItem.coverUrl },
              },
            },
          ],
          shipping_address: job.address,
          shipping_level: job.level,
        },
        false,
      ),
    printJob: (id: number) => call<PrintJob>("GET", `/print-jobs/${id}/`),
    /** Cancels a job the printer has not started; Lulu refuses (4xx) once production began. */
    cancelPrintJob: (id: number) => call<{ name: string }>("PUT", `/print-jobs/${id}/status/`, { name: "CANCELED" }),
  };
}

export type LuluClient = ReturnType<typeof createLuluClient>;
