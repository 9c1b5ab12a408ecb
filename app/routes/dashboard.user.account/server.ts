import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { z } from "zod";
import { confirmEmailChange, requestEmailChange } from "~/auth/email-change.server";
import { destroyUserSession, type SessionUser } from "~/auth/session.server";
import type { AppContext } from "~/context.server";
import { serializeLanguage } from "~/i18n/i18next.server";
import { deleteUserAccount, getAccount, setTimeZone, updatePreferences, updateProfile } from "~/models/user.server";
import { checkPhoto, MAX_PHOTO_BYTES } from "~/services/images.server";
import { log } from "~/services/logger.server";
import { storageKeys } from "~/services/storage-keys";
import { flashToast, redirectWithToast } from "~/services/toast.server";
import { parsePhone } from "~/utils/phone.server";
import { readForm, readMultipart } from "~/utils/request-body.server";
import { countryOfRequest } from "~/utils/request-country.server";
import { type AccountInput, Intent } from "./schema";

// What the account page's forms do, one function per intent. Each gets its parsed, valid input and
// the submission's reply, for errors found after parsing (a taken address, a photo that is no image).

const ACCOUNT_PAGE = "/dashboard/user/account";

type Reply = (options?: {
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
}) => SubmissionResult<string[]>;
type Input<I extends AccountInput["intent"]> = Extract<AccountInput, { intent: I }>;

/** A refused form: its errors go back to the form that sent it. */
export const refuse = (result: SubmissionResult<string[]>) => data({ result }, { status: 400 });

/**
 * The form, with a photo of at most 5 MB held in memory; a larger one, a second one or an unreadable
 * body is refused while it streams in (the photo field's message instead of the form). One that says
 * it is larger is refused `unread`, before a byte of it: the answer is a 413, which stops the browser.
 */
export async function readAccountForm(request: Request): Promise<FormData | { photoError: string; unread?: boolean }> {
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) return readForm(request);
  const tooLarge = { photoError: "account:errors.photoTooLarge" };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_PHOTO_BYTES + 64 * 1024)
    return { ...tooLarge, unread: true };
  const body = await readMultipart(request, {
    fileFields: ["photo"],
    maxFileBytes: MAX_PHOTO_BYTES,
    maxFieldBytes: 10_000,
  });
  if (!body.ok && body.problem === "tooLarge") return tooLarge;
  if (!body.ok && body.problem === "tooManyFiles") return { photoError: "account:errors.onePhoto" };
  if (!body.ok && body.problem === "badFileName") return { photoError: "account:errors.photoName" };
  // Only this form posts a file: a body that cannot be read is its photo's (a name with a NUL, …).
  if (!body.ok) return { photoError: "account:errors.photoUnreadable" };
  return body.form;
}

/** The general form's reply when its photo was refused unread: only multipart posts carry one, and only that form sends them. */
export function photoRefused(message: string, unread = false) {
  const generalOnly = new FormData();
  generalOnly.set("intent", Intent.general);
  const submission = parseWithZod(generalOnly, { schema: z.object({ intent: z.literal(Intent.general) }) });
  const result = submission.reply({ fieldErrors: { photo: [message] } });
  return unread ? data({ result }, { status: 413 }) : refuse(result);
}

export async function saveProfile(
  context: AppContext,
  request: Request,
  user: SessionUser,
  input: Input<typeof Intent.general>,
  reply: Reply,
) {
  const { intent: _general, photo, phone, ...fields } = input;

  let phoneE164: string | null = null;
  if (phone) {
    // Any country's number (test texts still go only to US and Canadian mobiles: the test page says so).
    phoneE164 = parsePhone(phone, countryOfRequest(request))?.e164 ?? null;
    if (!phoneE164) return refuse(reply({ fieldErrors: { phone: ["account:errors.phoneInvalid"] } }));
  }

  let newPhotoKey: string | undefined;
  if (photo && photo.size > 0) {
    const checked = await checkPhoto(photo);
    if (!checked.ok)
      return refuse(
        reply({
          fieldErrors: {
            photo: [checked.error === "tooLarge" ? "account:errors.photoTooLarge" : "account:errors.photoNotImage"],
          },
        }),
      );
    newPhotoKey = storageKeys.profilePhoto(user.id, checked.extension);
    await context.storage.put(newPhotoKey, checked.bytes, checked.contentType);
  }

  const before = await getAccount(context.db, user.id);
  try {
    await updateProfile(context.db, user.id, { ...fields, phoneE164, profilePicKey: newPhotoKey });
  } catch (error) {
    if (newPhotoKey) await context.storage.delete(newPhotoKey);
    log.error({ module: "account", err: error }, "profile update failed");
    return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "error", key: "account:toast.userNotUpdated" });
  }
  if (newPhotoKey && before.profile_pic_key) await context.storage.delete(before.profile_pic_key);

  const headers = new Headers({ "Set-Cookie": await serializeLanguage(fields.language, context.config) });
  if (fields.email.toLowerCase() !== before.email.toLowerCase()) {
    const limit = await context.rateLimit("emailChangePerUser", user.id);
    if (limit.allowed) {
      await requestEmailChange(
        context,
        { id: user.id, language: fields.language, first_name: fields.firstName },
        fields.email,
      );
      headers.append(
        "Set-Cookie",
        await flashToast(request, context, {
          type: "info",
          key: "account:toast.confirmEmailSent",
          values: { email: fields.email },
        }),
      );
    } else {
      headers.append("Set-Cookie", await flashToast(request, context, { type: "error", key: "errors.rateLimited" }));
    }
  }
  headers.append(
    "Set-Cookie",
    await flashToast(request, context, { type: "success", key: "account:toast.userUpdated" }),
  );
  return redirect(ACCOUNT_PAGE, { headers });
}

export async function confirmEmail(
  context: AppContext,
  request: Request,
  user: SessionUser,
  input: Input<typeof Intent.confirmEmail>,
  reply: Reply,
) {
  const outcome = await confirmEmailChange(context, user.id, input.code);
  if (outcome === "changed")
    return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "success", key: "account:toast.emailChanged" });
  const message =
    outcome === "wrong"
      ? "auth:errors.invalidCode"
      : outcome === "taken"
        ? "account:errors.emailTaken"
        : "auth:errors.expiredCode";
  return refuse(reply({ formErrors: [message] }));
}

export async function savePreferences(
  context: AppContext,
  request: Request,
  user: SessionUser,
  input: Input<typeof Intent.notifications>,
) {
  try {
    await updatePreferences(context.db, user.id, { activity: input.activity, application: input.application });
  } catch (error) {
    log.error({ module: "account", err: error }, "preferences update failed");
    return redirectWithToast(request, context, ACCOUNT_PAGE, {
      type: "error",
      key: "account:toast.preferencesNotUpdated",
    });
  }
  return redirectWithToast(request, context, ACCOUNT_PAGE, {
    type: "success",
    key: "account:toast.preferencesUpdated",
  });
}

/** The zone the user reads dates in (decision 069); a name that is no zone goes back to the field. */
export async function saveTimeZone(
  context: AppContext,
  request: Request,
  user: SessionUser,
  input: Input<typeof Intent.timeZone>,
  reply: Reply,
) {
  if (!(await setTimeZone(context.db, user.id, input.timeZone)))
    return refuse(reply({ fieldErrors: { timeZone: ["account:timeZone.invalid"] } }));
  return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "success", key: "account:timeZone.saved" });
}

/** Deletes the account and everything it owns (the database cascades), its files, and every session. */
export async function deleteAccount(context: AppContext, request: Request, user: SessionUser) {
  const { setCookie } = await destroyUserSession(request, context);
  await deleteUserAccount(context, user.id);
  const headers = new Headers({ "Set-Cookie": setCookie });
  headers.append(
    "Set-Cookie",
    await flashToast(request, context, { type: "success", key: "account:toast.accountDeleted" }),
  );
  return redirect("/", { headers });
}
