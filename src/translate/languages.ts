/** The language codes of the spec, exactly as clients must give them, with their names. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: "Arabic", az: "Azerbaijani", be: "Belarusian", bg: "Bulgarian", bn: "Bengali", ca: "Catalan",
  cs: "Czech", da: "Danish", de: "German", el: "Greek", en: "English", "es-ES": "Spanish",
  "es-MX": "Spanish (Mexico)", et: "Estonian", fa: "Persian", fi: "Finnish", fr: "French", he: "Hebrew",
  hi: "Hindi", hr: "Croatian", hu: "Hungarian", id: "Indonesian", is: "Icelandic", it: "Italian",
  ja: "Japanese", kk: "Kazakh", ko: "Korean", lt: "Lithuanian", lv: "Latvian", "ml-IN": "Malayalam",
  ms: "Malay", my: "Burmese", nl: "Dutch", no: "Norwegian", pl: "Polish", "pt-BR": "Portuguese (Brazil)",
  "pt-PT": "Portuguese (Portugal)", ro: "Romanian", ru: "Russian", sk: "Slovak", sl: "Slovene",
  sr: "Serbian (Cyrillic)", "sr-CS": "Serbian (Latin)", "sv-SE": "Swedish", ta: "Tamil", th: "Thai",
  tl: "Tagalog (Philippines)", tr: "Turkish", uk: "Ukrainian", "ur-PK": "Urdu (Pakistan)", uz: "Uzbek",
  vi: "Vietnamese", "zh-CN": "Chinese (Simplified)", "zh-TW": "Chinese (Traditional)", af: "Afrikaans",
  "fr-CA": "French (Canada)", "hy-AM": "Armenian", ka: "Georgian", te: "Telugu", tg: "Tajik", ky: "Kyrgyz",
};

export const LANGUAGE_CODES: ReadonlySet<string> = new Set(Object.keys(LANGUAGES));
