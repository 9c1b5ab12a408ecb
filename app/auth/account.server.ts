import { randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  MaxPartSizeExceededError,
  redirect,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
} from "@remix-run/node";
import type { AppContext } from "~/context.server";
import { languageCookie } from "~/i18n/i18next.server";
import { getAccount, updatePreferences, updateProfile } from "~/models/user.server";
import { readFormData } from "~/utils/form-data.server";
import { checkPhoto, MAX_PHOTO_BYTES } from "~/utils/images.server";
import { usOrCanadianE164 } from "~/utils/phone.server";
import { flashToast, redirectWithToast } from "~/utils/toast.server";
import { confirmEmailSchema, deleteAccountSchema, preferencesSchema, profileSchema } from "./account-forms";
import { confirmEmailChange, requestEmailChange } from "./email-change.server";
import { destroyUserSession, type SessionUser } from "./session.server";
import { deleteWithAnswerFiles } from "~/models/answer.server";

const ACCOUNT_PAGE = "/dashboard/user/account";

/** The form, with a photo of at most 5 MB held in memory; a larger one is refused while it streams in. */
export async function readAccountForm(request: Request): Promise<{ formData: FormData | null; photoTooLarge: boolean }> {
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) return { formData: await readFormData(request), photoTooLarge: false };
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_PHOTO_BYTES + 64 * 1024) return { formData: null, photoTooLarge: true };
  try {
    const formData = await parseMultipartFormData(request, createMemoryUploadHandler({ maxPartSize: MAX_PHOTO_BYTES }));
    return { formData, photoTooLarge: false };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { formData: null, photoTooLarge: true };
    throw new Response("Bad Request", { status: 400 });
  }
}

export async function saveProfile(context: AppContext, request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { photo, phone, ...fields } = submission.value;

  let phoneE164: string | null = null;
  if (phone) {
    phoneE164 = usOrCanadianE164(phone);
    if (!phoneE164) return data({ result: submission.reply({ fieldErrors: { phone: ["account:errors.phoneInvalid"] } }) }, { status: 400 });
  }

  let newPhotoKey: string | undefined;
  if (photo && photo.size > 0) {
    const checked = await checkPhoto(photo);
    if (!checked.ok) {
      const message = checked.error === "tooLarge" ? "account:errors.photoTooLarge" : "account:errors.photoNotImage";
      return data({ result: submission.reply({ fieldErrors: { photo: [message] } }) }, { status: 400 });
    }
    newPhotoKey = `profile/${user.id}/${randomUUID()}.${checked.extension}`;
    await context.storage.put(newPhotoKey, checked.bytes, checked.contentType);
  }

  const before = await getAccount(context.db, user.id);
  try {
    await updateProfile(context.db, user.id, { ...fields, phoneE164, profilePicKey: newPhotoKey });
  } catch (error) {
    if (newPhotoKey) await context.storage.delete(newPhotoKey);
    console.error("[account] profile update failed:", (error as Error).message);
    return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "error", key: "account:toast.userNotUpdated" });
  }
  if (newPhotoKey && before.profile_pic_key) await context.storage.delete(before.profile_pic_key);

  const headers = new Headers({ "Set-Cookie": await languageCookie.serialize(fields.language) });
  if (fields.email.toLowerCase() !== before.email.toLowerCase()) {
    const limit = await context.rateLimit("emailChangePerUser", user.id);
    if (limit.allowed) {
      await requestEmailChange(context, { id: user.id, language: fields.language, first_name: fields.firstName }, fields.email);
      headers.append("Set-Cookie", await flashToast(request, context, { type: "info", key: "account:toast.confirmEmailSent", values: { email: fields.email } }));
    } else {
      headers.append("Set-Cookie", await flashToast(request, context, { type: "error", key: "errors.rateLimited" }));
    }
  }
  headers.append("Set-Cookie", await flashToast(request, context, { type: "success", key: "account:toast.userUpdated" }));
  return redirect(ACCOUNT_PAGE, { headers });
}

export async function confirmEmail(context: AppContext, request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: confirmEmailSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const outcome = await confirmEmailChange(context, user.id, submission.value.code);
  if (outcome === "changed") return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "success", key: "account:toast.emailChanged" });
  const message = outcome === "wrong" ? "auth:errors.invalidCode" : outcome === "taken" ? "account:errors.emailTaken" : "auth:errors.expiredCode";
  return data({ result: submission.reply({ formErrors: [message] }) }, { status: 400 });
}

export async function savePreferences(context: AppContext, request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: preferencesSchema });
  if (submission.status !== "success") return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "error", key: "account:toast.preferencesNotUpdated" });
  try {
    await updatePreferences(context.db, user.id, submission.value);
  } catch (error) {
    console.error("[account] preferences update failed:", (error as Error).message);
    return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "error", key: "account:toast.preferencesNotUpdated" });
  }
  return redirectWithToast(request, context, ACCOUNT_PAGE, { type: "success", key: "account:toast.preferencesUpdated" });
}

/** Deletes the account and everything it owns (the database cascades), its files, and every session. */
export async function deleteAccount(context: AppContext, request: Request, user: SessionUser, formData: FormData) {
  const submission = parseWithZod(formData, { schema: deleteAccountSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { profile_pic_key } = await getAccount(context.db, user.id);
  const { setCookie } = await destroyUserSession(request, context);
  // Everything the account owns cascades; the recordings of its Storytellers go after the commit.
  await deleteWithAnswerFiles(context, { ownerId: user.id }, (tx) => tx.deleteFrom("users").where("id", "=", user.id).execute());
  if (profile_pic_key) await context.storage.delete(profile_pic_key);
  const headers = new Headers({ "Set-Cookie": setCookie });
  headers.append("Set-Cookie", await flashToast(request, context, { type: "success", key: "account:toast.accountDeleted" }));
  return redirect("/", { headers });
}
