// The bell, the notifications page and /resources/notifications, in the browser and on the server.
// No zod here: the bell is on every dashboard page, and its bundle stays small.

/** A notification as pages and the popover get it (dates as ISO strings). */
export type NotificationView = {
  id: string;
  type: string;
  storytellerId: string | null;
  promptId: string | null;
  nickname: string | null;
  promptText: string | null;
  isNew: boolean;
  createdAt: string;
};

/** What the bell posts to /resources/notifications: mark everything read, or the items it shows (`id` fields). */
export const BellIntent = { markAll: "all", markShown: "shown" } as const;
