import { type FieldMetadata } from "@conform-to/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors } from "~/components/forms";
import { searchZones, type ZoneChoice } from "~/utils/time-zones";
import { useHydrated } from "~/utils/use-hydrated";

// The Storyteller's time zone: a list of "city, country" in the reader's language, found by city or
// country in English or Hindi, with the zones of her number's country first. Without JavaScript the
// search box and the country are read when the form is posted again ("Show what this choice needs").

/** The offset of `zone` at `at`, in minutes east of UTC (Intl's "GMT+5:30"). */
function offsetMinutes(zone: string, at: Date) {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? "");
  return match ? (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0)) : 0;
}

/** Today's 10:00 in `zone`, as the browser's own clock reads it ("11:30 pm"). */
function tenThereForYou(zone: string, language: string) {
  const now = new Date();
  const [y, m, d] = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(now).split("-").map(Number);
  const at = new Date(Date.UTC(y, m - 1, d, 10, 0) - offsetMinutes(zone, now) * 60_000);
  return new Intl.DateTimeFormat(language, { hour: "numeric", minute: "2-digit" }).format(at);
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
  onZone: (zone: string) => void;
}) {
  const { t, i18n } = useTranslation("storytellers");
  const hydrated = useHydrated();
  const { found, first, rest } = useMemo(() => {
    const found = query.trim() ? searchZones(zones, query) : null;
    const first = found?.length ? found : zones.filter((z) => country && z.country === country);
    const firstIds = new Set(first.map((z) => z.zone));
    return { found, first, rest: zones.filter((z) => !firstIds.has(z.zone)) };
  }, [zones, query, country]);
  const chosen = zones.find((z) => z.zone === zone);
  const city = chosen?.label.split(",")[0] ?? zone;
  const browserZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  const searchId = `${field.id}-search`;
  const errorId = `${field.id}-error`;
  const firstLabel = found?.length
    ? t("fields.zoneMatches")
    : t("fields.zoneSuggested", { country: chosenCountryName(zones, country) });
  return (
    <div className="flex flex-col gap-1 min-[700px]:col-span-2">
      <label htmlFor={searchId} className="font-medium">
        {t("fields.zoneSearch")}
      </label>
      <input
        id={searchId}
        name="zoneQuery"
        type="search"
        className="input"
        autoComplete="off"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        aria-describedby={`${searchId}-hint`}
      />
      <p id={`${searchId}-hint`} className="text-sm text-muted">
        {t("fields.zoneSearchHint")}
      </p>
      {found && !found.length ? (
        <p role="status" className="text-sm">
          {t("fields.zoneNoMatch")}
        </p>
      ) : null}
      <label htmlFor={field.id} className="mt-2 font-medium">
        {t("fields.timeZone")}
      </label>
      <select
        id={field.id}
        name={field.name}
        className="input"
        value={zone}
        onChange={(event) => onZone(event.target.value)}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={`${field.id}-time${field.errors?.length ? ` ${errorId}` : ""}`}
      >
        {first.length ? (
          <optgroup label={firstLabel}>
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
      <p id={`${field.id}-time`} className="text-sm text-muted">
        {browserZone
          ? t("fields.zoneTimeForYou", { city, time: tenThereForYou(zone, i18n.language) })
          : t("fields.zoneTimeThere", { city })}
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
