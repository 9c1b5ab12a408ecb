// The share and listen pages' only script (standalone, no React; see app/root.tsx): the words follow
// the voice. Without it the page reads the same, as paragraphs under the player.
import { followWords } from "~/utils/follow-words";

document.querySelectorAll<HTMLElement>("[data-words-player]").forEach(followWords);
