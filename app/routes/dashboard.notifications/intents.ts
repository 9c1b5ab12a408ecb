/** The page's one button ("Mark all as read"). */
export const Intent = { markAllRead: "markAllRead" } as const;
