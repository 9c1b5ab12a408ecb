import { type CountryCode, isCountryCode } from "~/utils/phone.server";

/**
 * The country a number written without "+" is most likely from, when no one chose it: the region
 * of the browser's first language ("en-IN", "hi-IN"), else the US (where Heirloom began).
 */
export function countryOfRequest(request: Request): CountryCode {
  const first = request.headers.get("accept-language")?.split(",")[0]?.split(";")[0]?.trim() ?? "";
  const region = /^[a-z]{2,3}-([a-z]{2})$/i.exec(first)?.[1]?.toUpperCase();
  return isCountryCode(region) ? region : "US";
}
