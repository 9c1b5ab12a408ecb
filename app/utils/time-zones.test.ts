import { describe, expect, it } from "vitest";
import { phoneCountries } from "~/utils/phone.server";
import { phoneCountryChoices, zoneChoices } from "~/utils/time-zone-choices.server";
import { countryOfTypedNumber, onlyMatch, searchZones, zoneSearchFirst } from "~/utils/time-zones";

describe("finding a Storyteller's time zone", () => {
  it("finds Kolkata alone by its country or city, in English or Hindi, whichever language the list is in", () => {
    for (const language of ["en", "hi"])
      for (const query of ["India", "india", "Kolkata", "भारत", "कोलकाता", "kolk"])
        expect(onlyMatch(zoneChoices(language), query), `${query} (${language})`).toBe("Asia/Kolkata");
  });

  it("offers every place that begins with what was typed when no name is typed whole", () => {
    const found = searchZones(zoneChoices("en"), "Ind").map((z) => z.zone);
    expect(found).toContain("Asia/Kolkata");
    expect(found).toContain("Indian/Maldives");
    expect(searchZones(zoneChoices("en"), "United States").length).toBeGreaterThan(10);
    expect(searchZones(zoneChoices("en"), "Atlantis")).toEqual([]);
    expect(onlyMatch(zoneChoices("en"), "")).toBeNull();
  });
});

describe("her number's country", () => {
  const countries = phoneCountryChoices("en", phoneCountries());

  it("is read from the +code as it is typed, keeping the chosen one of countries that share it", () => {
    expect(countryOfTypedNumber("+91 98765 43210", countries)).toBe("IN");
    expect(countryOfTypedNumber("0091 98765", countries)).toBe("IN");
    expect(countryOfTypedNumber("+44 7400 123456", countries)).toBe("GB");
    expect(countryOfTypedNumber("+1 416 555 0199", countries)).toBe("US");
    expect(countryOfTypedNumber("+1 416 555 0199", countries, "CA")).toBe("CA");
    // Written nationally, or only the "+": no country yet.
    expect(countryOfTypedNumber("098765 43210", countries)).toBeNull();
    expect(countryOfTypedNumber("+9", countries)).toBeNull();
  });
});

describe("a plain post with a new search", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };

  it("is that search, whichever button sent it; a search already shown lets the page's button through", () => {
    const searched = zoneSearchFirst(form({ intent: "next", zoneQuery: "India", zoneQueryShown: "" }));
    expect(JSON.parse(String(searched.get("__intent__")))).toEqual({
      type: "validate",
      payload: { name: "zoneQuery" },
    });
    expect(
      zoneSearchFirst(form({ intent: "next", zoneQuery: "India", zoneQueryShown: "India" })).has("__intent__"),
    ).toBe(false);
    expect(zoneSearchFirst(form({ intent: "delete" })).has("__intent__")).toBe(false);
  });
});
