import { createReadStream } from "node:fs";
import { storageKeys } from "~/services/storage-keys";
import { randomSid } from "~/services/whatsapp-simulator.server";
import type { AnswerServices } from "./answer.server";
import { handleInboundWhatsApp } from "./whatsapp.server";

/**
 * The WhatsApp simulator in /dev/outbox (no Twilio): what she sends goes through the same handler as
 * Twilio's webhook. A voice note is kept in storage as Twilio keeps media, for the same job to
 * fetch and delete; it is offered as audio, as WhatsApp labels a voice note, and the job's checks
 * of the bytes decide what it is.
 */
export async function simulateWhatsApp(
  services: AnswerServices,
  input: { from: string; body: string; file: string | null; repliedTo: string | null },
) {
  const media = input.file ? { mediaSid: randomSid("ME"), contentType: "audio/ogg" } : null;
  if (media && input.file)
    await services.storage.putStream(
      storageKeys.whatsappSimulatorMedia(media.mediaSid),
      createReadStream(input.file),
      "application/octet-stream",
    );
  return handleInboundWhatsApp(services.db, services.config, {
    from: input.from,
    body: input.body,
    messageSid: randomSid(media ? "MM" : "SM"),
    media,
    repliedTo: input.repliedTo,
  });
}
