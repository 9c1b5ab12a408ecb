import { z } from "zod";
import { LOG_LEVELS } from "~/services/logger.server";
import { DEFAULT_SPEECH_MODEL, SPEECH_MODEL_NAMES } from "~/services/speech-models.server";
import { type CountryCode, isCountryCode, numberServesCountry } from "~/utils/phone.server";

const optional = <T extends z.ZodType>(schema: T) => schema.optional();

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no"])
  .transform((value) => ["1", "true", "on", "yes"].includes(value));

const VOICE_NUMBERS_SHAPE = "must be COUNTRY=number pairs separated by commas, like IN=+911123456789,US=+15551234567";

/** TWILIO_VOICE_NUMBERS as country → E.164 line; each number must be one of its country's. */
function parseVoiceNumbers(value: string, ctx: z.RefinementCtx): Partial<Record<CountryCode, string>> {
  const lines: Partial<Record<CountryCode, string>> = {};
  for (const pair of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^([A-Za-z]{2})\s*=\s*(\+[1-9]\d{6,14})$/.exec(pair);
    const country = match?.[1].toUpperCase();
    if (!match || !isCountryCode(country)) {
      ctx.addIssue({ code: "custom", message: `${VOICE_NUMBERS_SHAPE} ("${pair}" is not)` });
      continue;
    }
    if (!numberServesCountry(match[2], country))
      ctx.addIssue({ code: "custom", message: `has ${match[2]} for ${country}, which is not a number of ${country}` });
    else if (lines[country]) ctx.addIssue({ code: "custom", message: `names ${country} twice` });
    else lines[country] = match[2];
  }
  return lines;
}

/** Every environment variable Heirloom reads. README.md documents each one. */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    APP_NAME: z.string().min(1).default("Heirloom"),
    APP_URL: optional(z.url({ protocol: /^https?$/ })),
    DATA_DIR: z.string().min(1).default(".data"),

    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(25432),

    SESSION_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
    // on: pages and jobs; off: pages only; only: jobs only, no HTTP (`npm run worker`).
    WORKER: z.enum(["on", "off", "only"]).default("on"),
    METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
    MAINTENANCE_MODE: optional(flag),
    // Who runs the site (sees setup commands): these addresses, else the first account made.
    ADMIN_EMAILS: optional(
      z
        .string()
        .transform((value) =>
          value
            .split(",")
            .map((email) => email.trim().toLowerCase())
            .filter(Boolean),
        )
        .pipe(z.array(z.email())),
    ),
    TRUST_PROXY: optional(flag),
    // Read by app/services/logger.server.ts when it loads; listed here so a bad value stops the boot.
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),

    MAIL_FROM: optional(z.string().min(3)),
    MAIL_POSTAL_ADDRESS: optional(z.string().min(5)),
    CONTACT_EMAIL: optional(z.email()),
    POSTMARK_SERVER_TOKEN: optional(z.string().min(1)),
    POSTMARK_API_URL: optional(z.url()),
    POSTMARK_WEBHOOK_SECRET: optional(z.string().min(16)),
    // The domain Postmark receives replies on (its inbound domain or its own inbound address's).
    INBOUND_EMAIL_DOMAIN: optional(
      z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, "must be a domain like replies.example.com"),
    ),

    TWILIO_ACCOUNT_SID: optional(
      z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must look like AC followed by 32 hex digits"),
    ),
    TWILIO_AUTH_TOKEN: optional(z.string().min(16)),
    TWILIO_FROM_NUMBER: optional(z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number like +15551234567")),
    TWILIO_API_URL: optional(z.url()),
    // The number Storytellers call to answer by phone (may be the SMS number); with Twilio, voice is on only when set.
    TWILIO_VOICE_NUMBER: optional(z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number like +15551234567")),
    // One answer-by-phone line per country, "IN=+91…,US=+1…" (decision 043); TWILIO_VOICE_NUMBER is the US/CA line.
    TWILIO_VOICE_NUMBERS: optional(z.string().transform(parseVoiceNumbers)),
    // WhatsApp (decision 041): the sender's number, and the approved question template's Content SID per language.
    TWILIO_WHATSAPP_FROM: optional(z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number like +15551234567")),
    TWILIO_WHATSAPP_CONTENT_SID_EN: optional(
      z.string().regex(/^HX[0-9a-fA-F]{32}$/, "must look like HX followed by 32 hex digits"),
    ),
    TWILIO_WHATSAPP_CONTENT_SID_HI: optional(
      z.string().regex(/^HX[0-9a-fA-F]{32}$/, "must look like HX followed by 32 hex digits"),
    ),

    GOOGLE_CLIENT_ID: optional(z.string().min(1)),
    GOOGLE_CLIENT_SECRET: optional(z.string().min(1)),
    GOOGLE_API_URL: optional(z.url()),

    S3_BUCKET: optional(z.string().min(3)),
    S3_REGION: optional(z.string().min(1)),
    S3_ENDPOINT: optional(z.url()),
    S3_ACCESS_KEY_ID: optional(z.string().min(1)),
    S3_SECRET_ACCESS_KEY: optional(z.string().min(1)),

    TRANSCRIBE_URL: optional(z.url()),
    TRANSCRIBE_API_KEY: optional(z.string().min(1)),
    TRANSCRIBE_MODEL: z.string().min(1).default("whisper-1"),
    // Transcribed on the machine (decisions 035, 036): a model name or a path to a whisper.cpp model file.
    SPEECH_MODEL: z
      .string()
      .refine((value) => (SPEECH_MODEL_NAMES as string[]).includes(value) || /[/\\]|\.bin$/.test(value), {
        message: `must be one of ${SPEECH_MODEL_NAMES.join(", ")} or the path of a model file`,
      })
      .default(DEFAULT_SPEECH_MODEL),
    SPEECH_MODEL_DIR: optional(z.string().min(1)),
    SPEECH_MODEL_URL: optional(z.url({ protocol: /^https?$/ })),
    SPEECH_MODEL_DOWNLOAD: flag.default(true),
    SPEECH_ENGINE: optional(z.string().min(1)),
    SPEECH_THREADS: optional(z.coerce.number().int().min(1).max(64)),
    // Read by app/services/audio.server.ts; listed here so every variable is checked and documented.
    FFMPEG_PATH: optional(z.string().min(1)),
    FFPROBE_PATH: optional(z.string().min(1)),
    // Keeping it forever (decision 023): books print through this Chromium; exports larger than
    // EXPORT_STREAM_MAX_MB are built by a job instead of streamed straight to the browser.
    CHROMIUM_PATH: z.string().min(1).default("/usr/bin/chromium"),
    EXPORT_STREAM_MAX_MB: z.coerce.number().int().min(0).default(200),
    // Ordering printed books (decision 082): the self-hoster's own Lulu Print API account, sandbox or production.
    LULU_CLIENT_KEY: optional(z.string().min(1)),
    LULU_CLIENT_SECRET: optional(z.string().min(1)),
    LULU_API_URL: optional(z.url()),
  })
  .superRefine((env, ctx) => {
    const requireWith = (when: keyof typeof env, needs: (keyof typeof env)[]) => {
      if (!env[when]) return;
      for (const name of needs) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `is required when ${when} is set` });
      }
    };
    requireWith("POSTMARK_SERVER_TOKEN", ["MAIL_FROM", "APP_URL", "MAIL_POSTAL_ADDRESS", "CONTACT_EMAIL"]);
    requireWith("TWILIO_ACCOUNT_SID", ["TWILIO_AUTH_TOKEN", "TWILIO_FROM_NUMBER", "APP_URL"]);
    requireWith("TWILIO_WHATSAPP_FROM", [
      "TWILIO_ACCOUNT_SID",
      "TWILIO_WHATSAPP_CONTENT_SID_EN",
      "TWILIO_WHATSAPP_CONTENT_SID_HI",
    ]);
    requireWith("GOOGLE_CLIENT_ID", ["GOOGLE_CLIENT_SECRET", "APP_URL"]);
    requireWith("S3_BUCKET", ["S3_REGION"]);
    // Half a key pair would silently fall back to the AWS default credentials.
    requireWith("S3_ACCESS_KEY_ID", ["S3_SECRET_ACCESS_KEY"]);
    requireWith("S3_SECRET_ACCESS_KEY", ["S3_ACCESS_KEY_ID"]);
    requireWith("TRANSCRIBE_URL", ["TRANSCRIBE_API_KEY"]);
    requireWith("LULU_CLIENT_KEY", ["LULU_CLIENT_SECRET", "LULU_API_URL"]);
    // A jobs-only process shares the web processes' database; an embedded one of its own would not be it.
    if (env.WORKER === "only" && !env.DATABASE_URL) {
      ctx.addIssue({ code: "custom", path: ["DATABASE_URL"], message: "is required when WORKER is only" });
    }
    if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production with an external DATABASE_URL",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export type Config = Env & {
  APP_URL: string;
  SESSION_SECRET: string;
  MAIL_FROM: string;
  CONTACT_EMAIL: string;
  MAIL_POSTAL_ADDRESS: string;
  /** true while mail and SMS go to the built-in outbox (no provider configured). */
  mailUsesOutbox: boolean;
  /**
   * The domain of question emails' Reply-To (`reply+<token>@…`): INBOUND_EMAIL_DOMAIN, else
   * "inbound.localhost" while mail stays in the outbox (its "Reply to this email" form answers),
   * else null (no Reply-To: a reply would go nowhere).
   */
  inboundEmailDomain: string | null;
  smsUsesOutbox: boolean;
  /**
   * The answer-by-phone line of each country that has one (TWILIO_VOICE_NUMBERS, with
   * TWILIO_VOICE_NUMBER as the US and Canadian line). Without Twilio and without lines, the phone
   * simulator's (in /dev/outbox) serves the US and Canada, so the whole flow works on the embedded
   * default. A Storyteller's line: storytellerVoiceLine (app/utils/voice-lines.server.ts).
   */
  voiceLines: Partial<Record<CountryCode, string>>;
  /** A line to answer by phone (the US one when there is one), or null when answering by phone is off everywhere. */
  voiceNumber: string | null;
  voiceUsesSimulator: boolean;
  /** WhatsApp can be chosen: through Twilio when TWILIO_WHATSAPP_FROM is set, else the outbox's simulator. */
  whatsappOn: boolean;
};

/** Served over https: every cookie is then `Secure`. */
export const servesHttps = (config: Pick<Config, "APP_URL">) => config.APP_URL.startsWith("https:");

/** The simulator's number when TWILIO_VOICE_NUMBER is not set (555-01xx numbers are fictional). */
export const SIMULATOR_VOICE_NUMBER = "+15555550100";

function voiceLinesOf(env: Env): Pick<Config, "voiceLines" | "voiceNumber"> {
  const northAmerica =
    env.TWILIO_VOICE_NUMBER ??
    (env.TWILIO_ACCOUNT_SID || env.TWILIO_VOICE_NUMBERS ? undefined : SIMULATOR_VOICE_NUMBER);
  const listed = env.TWILIO_VOICE_NUMBERS ?? {};
  // One North American line serves the US and Canada alike (a call between them is not international).
  const nanp = listed.US ?? listed.CA ?? northAmerica;
  const voiceLines = { ...(nanp ? { US: nanp, CA: nanp } : {}), ...listed };
  return { voiceLines, voiceNumber: voiceLines.US ?? Object.values(voiceLines)[0] ?? null };
}

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message is one line naming the bad variable(s). */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value counts as "not set", so `FOO=` in a .env file behaves like no FOO.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "environment";
    const value = source[name];
    const message = value === undefined && issue.code === "invalid_type" ? "is required" : issue.message;
    return `${name} ${message}`;
  });
  throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
}

/** Fills the values that have safe defaults once the secrets are known. */
export function completeConfig(env: Env, secrets: { SESSION_SECRET: string }): Config {
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const host = new URL(appUrl).hostname;
  return {
    ...env,
    APP_URL: appUrl,
    SESSION_SECRET: env.SESSION_SECRET ?? secrets.SESSION_SECRET,
    MAIL_FROM: env.MAIL_FROM ?? `${env.APP_NAME} <hello@${host}>`,
    // Only the outbox runs without these (Postmark requires them), so placeholders are harmless.
    CONTACT_EMAIL: env.CONTACT_EMAIL ?? `contact@${host}`,
    MAIL_POSTAL_ADDRESS: env.MAIL_POSTAL_ADDRESS ?? "(postal address not configured)",
    mailUsesOutbox: !env.POSTMARK_SERVER_TOKEN,
    inboundEmailDomain: env.INBOUND_EMAIL_DOMAIN ?? (env.POSTMARK_SERVER_TOKEN ? null : "inbound.localhost"),
    smsUsesOutbox: !env.TWILIO_ACCOUNT_SID,
    ...voiceLinesOf(env),
    voiceUsesSimulator: !env.TWILIO_ACCOUNT_SID,
    whatsappOn: !env.TWILIO_ACCOUNT_SID || Boolean(env.TWILIO_WHATSAPP_FROM),
  };
}
