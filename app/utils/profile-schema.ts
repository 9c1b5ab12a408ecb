import { z } from "zod";
import { supportedLanguages } from "~/i18n/config";
import { PROFILE_INTENT } from "~/utils/profile-intent";
import { choice, email, line, plainLine } from "~/utils/validation";

// General settings (app/components/profile-form.tsx), checked on the server. The form is
// shown on the account page and on /dashboard/user/{nickname}/edit, and always posts to the account
// page, whose intent union (app/routes/dashboard.user.account/schema.ts) includes it.

export { PROFILE_INTENT };

export const profileSchema = z.object({
  intent: z.literal(PROFILE_INTENT),
  firstName: line(1, 50),
  lastName: line(1, 50),
  nickname: line(2, 30),
  email: email(),
  language: choice(supportedLanguages),
  phone: plainLine(30).optional(),
  // A file part without a name arrives as text: the photo could not be read, on its field.
  photo: z.instanceof(File, { error: "account:errors.photoUnreadable" }).optional(),
});
