import { type Kysely, sql } from "kysely";

// - users.time_zone: the zone a family member reads dates in (decision 069). Null until their browser
//   tells it, or they choose one in Settings; the pages read it as UTC meanwhile.
// - english_word_forms: the forms of irregular English verbs, which no stemmer relates ("swim",
//   "swam", "swum"). Search rewrites each form in a query into all of them (ts_rewrite), so the
//   GIN indexes of migration 0020 serve the rewritten query as they do the typed one.
const IRREGULAR_VERBS = [
  "arise arose arisen",
  "awake awoke awoken",
  "be was were been",
  "beat beaten",
  "become became",
  "begin began begun",
  "bend bent",
  "bite bit bitten",
  "bleed bled",
  "blow blew blown",
  "break broke broken",
  "breed bred",
  "bring brought",
  "build built",
  "burn burnt",
  "buy bought",
  "catch caught",
  "choose chose chosen",
  "come came",
  "creep crept",
  "dig dug",
  "do did done",
  "draw drew drawn",
  "dream dreamt",
  "drink drank drunk",
  "drive drove driven",
  "eat ate eaten",
  "fall fell fallen",
  "feed fed",
  "feel felt",
  "fight fought",
  "find found",
  "flee fled",
  "fly flew flown",
  "forget forgot forgotten",
  "forgive forgave forgiven",
  "freeze froze frozen",
  "get got gotten",
  "give gave given",
  "go went gone",
  "grow grew grown",
  "hang hung",
  "have had",
  "hear heard",
  "hide hid hidden",
  "hold held",
  "keep kept",
  "kneel knelt",
  "know knew known",
  "lay laid",
  "lead led",
  "leap leapt",
  "learn learnt",
  "leave left",
  "lend lent",
  "light lit",
  "lose lost",
  "make made",
  "mean meant",
  "meet met",
  "pay paid",
  "ride rode ridden",
  "ring rang rung",
  "run ran",
  "say said",
  "see saw seen",
  "seek sought",
  "sell sold",
  "send sent",
  "sew sewn",
  "shake shook shaken",
  "shine shone",
  "shoot shot",
  "show shown",
  "shrink shrank shrunk",
  "sing sang sung",
  "sink sank sunk",
  "sit sat",
  "sleep slept",
  "slide slid",
  "speak spoke spoken",
  "spend spent",
  "spin spun",
  "spit spat",
  "stand stood",
  "steal stole stolen",
  "stick stuck",
  "sting stung",
  "stink stank stunk",
  "strike struck",
  "swear swore sworn",
  "sweep swept",
  "swim swam swum",
  "swing swung",
  "take took taken",
  "teach taught",
  "tear tore torn",
  "tell told",
  "think thought",
  "throw threw thrown",
  "understand understood",
  "wake woke woken",
  "wear wore worn",
  "weave wove woven",
  "weep wept",
  "win won",
  "write wrote written",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users ADD COLUMN time_zone text;
    CREATE TABLE english_word_forms (
      target tsquery NOT NULL,
      substitute tsquery NOT NULL
    );
  `.execute(db);
  // One row per form, its target the form as the english config stems it (and as 'simple' keeps
  // it, when that differs), its substitute every form of the verb.
  await sql`
    INSERT INTO english_word_forms (target, substitute)
    SELECT DISTINCT target, substitute
    FROM unnest(${IRREGULAR_VERBS}::text[]) AS verb(forms)
    CROSS JOIN LATERAL (
      SELECT to_tsquery('english', replace(forms, ' ', ' | ')) || to_tsquery('simple', replace(forms, ' ', ' | '))
        AS substitute
    ) whole
    CROSS JOIN LATERAL unnest(string_to_array(forms, ' ')) AS form(word)
    CROSS JOIN LATERAL (
      SELECT to_tsquery('english', word) AS target
      UNION
      SELECT to_tsquery('simple', word)
    ) one
    WHERE numnode(target) > 0;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    DROP TABLE english_word_forms;
    ALTER TABLE users DROP COLUMN time_zone;
  `.execute(db);
}
