import enAbout from "../../locales/en/about.json";
import enAccount from "../../locales/en/account.json";
import enAuth from "../../locales/en/auth.json";
import enCommon from "../../locales/en/common.json";
import enContact from "../../locales/en/contact.json";
import enDelivery from "../../locales/en/delivery.json";
import enEmails from "../../locales/en/emails.json";
import enFaqs from "../../locales/en/faqs.json";
import enGroups from "../../locales/en/groups.json";
import enHome from "../../locales/en/home.json";
import enKeep from "../../locales/en/keep.json";
import enPhone from "../../locales/en/phone.json";
import enPrivacy from "../../locales/en/privacy.json";
import enRecord from "../../locales/en/record.json";
import enRegisteredTexts from "../../locales/en/registered-texts.json";
import enResponses from "../../locales/en/responses.json";
import enShare from "../../locales/en/share.json";
import enStories from "../../locales/en/stories.json";
import enStorytellers from "../../locales/en/storytellers.json";
import enTerms from "../../locales/en/terms.json";
import enTimeline from "../../locales/en/timeline.json";
import enWhatsapp from "../../locales/en/whatsapp.json";
import enWords from "../../locales/en/words.json";
import hiAbout from "../../locales/hi/about.json";
import hiAccount from "../../locales/hi/account.json";
import hiAuth from "../../locales/hi/auth.json";
import hiCommon from "../../locales/hi/common.json";
import hiContact from "../../locales/hi/contact.json";
import hiDelivery from "../../locales/hi/delivery.json";
import hiEmails from "../../locales/hi/emails.json";
import hiFaqs from "../../locales/hi/faqs.json";
import hiGroups from "../../locales/hi/groups.json";
import hiHome from "../../locales/hi/home.json";
import hiKeep from "../../locales/hi/keep.json";
import hiPhone from "../../locales/hi/phone.json";
import hiPrivacy from "../../locales/hi/privacy.json";
import hiRecord from "../../locales/hi/record.json";
import hiRegisteredTexts from "../../locales/hi/registered-texts.json";
import hiResponses from "../../locales/hi/responses.json";
import hiShare from "../../locales/hi/share.json";
import hiStories from "../../locales/hi/stories.json";
import hiStorytellers from "../../locales/hi/storytellers.json";
import hiTerms from "../../locales/hi/terms.json";
import hiTimeline from "../../locales/hi/timeline.json";
import hiWhatsapp from "../../locales/hi/whatsapp.json";
import hiWords from "../../locales/hi/words.json";

/** Every translation, bundled into the server build (no file reads at request time). One namespace
 * per public page, so a page embeds only its own text (see docs/decisions/005). */
export const resources = {
  en: {
    common: enCommon,
    account: enAccount,
    auth: enAuth,
    emails: enEmails,
    home: enHome,
    about: enAbout,
    contact: enContact,
    faqs: enFaqs,
    privacy: enPrivacy,
    "registered-texts": enRegisteredTexts,
    terms: enTerms,
    storytellers: enStorytellers,
    delivery: enDelivery,
    record: enRecord,
    responses: enResponses,
    share: enShare,
    stories: enStories,
    timeline: enTimeline,
    groups: enGroups,
    keep: enKeep,
    phone: enPhone,
    whatsapp: enWhatsapp,
    words: enWords,
  },
  hi: {
    common: hiCommon,
    account: hiAccount,
    auth: hiAuth,
    emails: hiEmails,
    home: hiHome,
    about: hiAbout,
    contact: hiContact,
    faqs: hiFaqs,
    privacy: hiPrivacy,
    "registered-texts": hiRegisteredTexts,
    terms: hiTerms,
    storytellers: hiStorytellers,
    delivery: hiDelivery,
    record: hiRecord,
    responses: hiResponses,
    share: hiShare,
    stories: hiStories,
    timeline: hiTimeline,
    groups: hiGroups,
    keep: hiKeep,
    phone: hiPhone,
    whatsapp: hiWhatsapp,
    words: hiWords,
  },
} as const;
