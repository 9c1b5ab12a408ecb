import { type FieldMetadata } from "@conform-to/react";
import { type KeyboardEvent, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors } from "~/components/forms";
import { dateTimeFormat, intlLocale } from "~/utils/intl-formats";
import { searchZones, zoneSearchIntent, type ZoneChoice } from "~/utils/time-zones";
import { useHydrated } from "~/utils/use-hydrated";

// The Storyteller's time zone: a list of "city, country" in the reader's language, found by city or
// country in English or Hindi, with the zones of her number's country first. A search that finds
// one place chooses it; one that finds several offers them to pick from. Without JavaScript the
// search is the "Find" button (and Enter in the box: zoneSearchFirst), which draws the page again
// with everything typed kept.

/** At most this many places are offered to pick from; more asks for more of the name. */
const MAX_MATCHES = 12;

/** The offset of `zone` at `at`, in minutes east of UTC (Intl's "GMT+5:30"). */
function offsetMinutes(zone: string, at: Date) {
  const name = dateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? "");
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0)) : 0;
}

/** Today's 10:00 in `zone`, as an instant. */
function tenThere(zone: string) {
  const now = new Date();
  const [y, m, d] = dateTimeFormat("en-CA", { timeZone: zone }).format(now).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d, 10, 0) - offsetMinutes(zone, now) * 60_000);
}

/**
 * A moment as the reader's own clock shows it ("9:30 PM"), once the browser has said where the
 * reader is; null on the server and without JavaScript.
 */
export function useTimeForYou(at: Date | string | null, language: string): string | null {
  const hydrated = useHydrated();
  if (!hydrated || !at) return null;
  return dateTimeFormat(intlLocale(language), { hour: "numeric", minute: "2-digit" }).format(new Date(at));
}

/** "10:00 in Kolkata, India — 8:30 PM for you": when questions reach her, in words, and the reader's time. */
export function SendTime({ zone, place }: { zone: string; place: string }) {
  const { t, i18n } = useTranslation("storytellers");
  const yours = useTimeForYou(
    useMemo(() => (zone ? tenThere(zone) : null), [zone]),
    i18n.language,
  );
  return <>{yours ? t("fields.zoneAtForYou", { place, time: yours }) : t("fields.zoneAt", { place })}</>;
}

export function TimeZoneChooser({
  field,
  zones,
  country,
  query,
  onQuery,
  zone,
  onZone,
}: {
  field: FieldMetadata<unknown>;
  zones: ZoneChoice[];
  /** The country of her number, whose zones come first. */
  country: string | undefined;
  query: string;
  onQuery: (query: string) => void;
  zone: string;
  /** A zone chosen by the reader (from the list, the places found, or a search that found one). */
  onZone: (zone: string) => void;
}) {
  const { t } = useTranslation("storytellers");
  const hydrated = useHydrated();
  const matchesRef = useRef<HTMLFieldSetElement>(null);
  const found = useMemo(() => (query.trim() ? searchZones(zones, query) : null), [zones, query]);
  const { first, rest } = useMemo(() => {
    const first = zones.filter((z) => country && z.country === country);
    const firstIds = new Set(first.map((z) => z.zone));
    return { first, rest: zones.filter((z) => !firstIds.has(z.zone)) };
  }, [zones, country]);
  // Several places found: they are the choice (the list is set aside, so it is not what is posted).
  const offered = found && found.length > 1 ? found.slice(0, MAX_MATCHES) : null;
  const chosen = offered ? offered.find((z) => z.zone === zone) : zones.find((z) => z.zone === zone);
  const searchId = `${field.id}-search`;
  const errorId = `${field.id}-error`;
  const search = (typed: string) => {
    onQuery(typed);
    const places = searchZones(zones, typed);
    if (places.length === 1) onZone(places[0].zone);
  };
  // Enter in the search box searches; it never sends the whole form.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    matchesRef.current?.querySelector<HTMLInputElement>("input")?.focus();
  };
  return (
    <div className="flex flex-col gap-1 min-[700px]:col-span-2">
      <label htmlFor={searchId} className="font-medium">
        {t("fields.zoneSearch")}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={searchId}
          name="zoneQuery"
          type="search"
          className="input min-w-0 flex-1"
          autoComplete="off"
          value={query}
          onChange={(event) => search(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={`${searchId}-hint`}
        />
        {hydrated ? null : (
          <button type="submit" name="__intent__" value={zoneSearchIntent} formNoValidate className="btn-secondary">
            {t("fields.zoneFind")}
          </button>
        )}
      </div>
      {/* What the places below were found for: a plain post with another search is that search. */}
      <input type="hidden" name="zoneQueryShown" value={query} />
      <p id={`${searchId}-hint`} className="text-sm text-muted">
        {t("fields.zoneSearchHint")}
      </p>
      {found && !found.length ? (
        <p role="status" className="text-sm">
          {t("fields.zoneNoMatch")}
        </p>
      ) : null}
      {offered ? (
        <fieldset ref={matchesRef} className="mt-2 flex flex-col" aria-describedby={`${field.id}-more`}>
          <legend className="font-medium">{t("fields.zoneMatches", { count: found!.length })}</legend>
          {offered.map((z) => (
            <label key={z.zone} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name={field.name}
                value={z.zone}
                checked={zone === z.zone}
                onChange={() => onZone(z.zone)}
              />
              {z.label}
            </label>
          ))}
          <p id={`${field.id}-more`} className="text-sm text-muted">
            {found!.length > MAX_MATCHES ? t("fields.zoneMoreMatches") : t("fields.zonePickOne")}
          </p>
        </fieldset>
      ) : null}
      <label htmlFor={field.id} className="mt-2 font-medium">
        {t("fields.timeZone")}
      </label>
      <select
        id={field.id}
        name={field.name}
        className="input"
        value={zone}
        disabled={Boolean(offered)}
        onChange={(event) => onZone(event.target.value)}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={`${field.id}-time${field.errors?.length ? ` ${errorId}` : ""}`}
      >
        {zone && !zones.some((z) => z.zone === zone) ? <option value={zone}>{zone}</option> : null}
        {offered && !chosen ? <option value="">{t("fields.zoneNoneChosen")}</option> : null}
        {first.length ? (
          <optgroup label={t("fields.zoneSuggested", { country: chosenCountryName(zones, country) })}>
            {first.map((z) => (
              <option key={z.zone} value={z.zone}>
                {z.label}
              </option>
            ))}
          </optgroup>
        ) : null}
        <optgroup label={t("fields.zoneAll")}>
          {rest.map((z) => (
            <option key={z.zone} value={z.zone}>
              {z.label}
            </option>
          ))}
        </optgroup>
      </select>
      <p id={`${field.id}-time`} role="status" className="text-sm text-muted">
        {chosen ? <SendTime zone={chosen.zone} place={chosen.label} /> : null}
      </p>
      <FieldErrors id={errorId} errors={field.errors} />
    </div>
  );
}

/** The country's name as the list writes it ("India" in "Kolkata, India"). */
function chosenCountryName(zones: ZoneChoice[], country: string | undefined) {
  const label = zones.find((z) => z.country === country)?.label ?? "";
  return label.slice(label.lastIndexOf(",") + 1).trim() || (country ?? "");
}
