/**
 * Postman's dynamic variables (`{{$randomFirstName}}`, `{{$randomEmail}}`, `{{$randomUUID}}` …),
 * the documented set that imported collections use, made fresh at each use like Postman's
 * (which draws them from faker): values of the same shape, from small word lists.
 * `$guid`, `$timestamp`, `$isoTimestamp` and `$randomInt` are the runner's own
 * (`dynamic_variables.ts`), which asks this module for every other `$name`.
 *
 * @see https://learning.postman.com/docs/tests-and-scripts/write-scripts/variables-list/
 * @module
 */

const FIRST = ["Ann", "Ben", "Chloe", "David", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jack"];
const LAST = ["Smith", "Jones", "Garcia", "Miller", "Davis", "Lopez", "Wilson", "Moore", "Clark"];
const WORDS = [
  "alpha",
  "bravo",
  "cargo",
  "delta",
  "ember",
  "focus",
  "gamma",
  "harbor",
  "index",
  "jolly",
  "kernel",
  "lunar",
  "matrix",
  "nova",
  "orbit",
  "pixel",
  "quartz",
  "radar",
  "signal",
  "tensor",
];
const NOUNS = ["array", "bus", "circuit", "driver", "feed", "firewall", "hard drive", "matrix"];
const VERBS = ["back up", "bypass", "hack", "override", "compress", "copy", "navigate", "index"];
const ADJECTIVES = ["auxiliary", "primary", "back-end", "digital", "open-source", "virtual"];
const INGVERBS = ["backing up", "bypassing", "hacking", "overriding", "compressing", "copying"];
const COLORS = ["red", "green", "blue", "orange", "purple", "teal", "olive", "silver"];
const CITIES = ["Springfield", "Riverside", "Fairview", "Georgetown", "Salem", "Madison"];
const STREETS = ["Main", "Oak", "Pine", "Maple", "Cedar", "Elm", "Lake", "Hill"];
const COUNTRIES: Array<[string, string]> = [
  ["France", "FR"],
  ["Germany", "DE"],
  ["Japan", "JP"],
  ["Brazil", "BR"],
  ["Canada", "CA"],
  ["Kenya", "KE"],
];
const CURRENCIES: Array<[string, string, string]> = [
  ["USD", "US Dollar", "$"],
  ["EUR", "Euro", "€"],
  ["GBP", "Pound Sterling", "£"],
  ["JPY", "Yen", "¥"],
];
const JOB_AREAS = ["Mobility", "Security", "Accounts", "Marketing", "Research", "Quality"];
const JOB_DESCRIPTORS = ["Lead", "Senior", "Direct", "Dynamic", "Global", "Chief"];
const JOB_TYPES = ["Engineer", "Designer", "Manager", "Analyst", "Officer", "Consultant"];
/** The months' English names, January first (`$randomMonth`, `$datetime`'s `MMMM`). */
export const MONTHS: readonly string[] = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MIME: Array<[string, string]> = [
  ["application/json", "json"],
  ["text/plain", "txt"],
  ["image/png", "png"],
  ["application/pdf", "pdf"],
  ["text/csv", "csv"],
];
const DOMAIN_SUFFIXES = ["com", "net", "org", "info", "biz"];

function random(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
}
const int = (min: number, max: number) => Math.floor(min + random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
const chars = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[int(0, alphabet.length - 1)]).join("");
const HEX = "0123456789abcdef";
const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
const sentence = () => `${capital(words(int(4, 8)))}.`;
const paragraph = () => Array.from({ length: int(3, 5) }, sentence).join(" ");
const domainWord = () => `${pick(WORDS)}-${pick(WORDS)}`;
const userName = () => `${pick(FIRST)}.${pick(LAST)}${int(1, 99)}`;
const daysFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toString();
const image = (topic: string) => () => `http://placeimg.com/640/480/${topic}`;
/** The topics of Postman's `$random…Image` variables. */
const IMAGE_TOPICS =
  "abstract animals business cats city food nightlife fashion people nature sports transport"
    .split(" ");

/** Each documented name's generator. */
const GENERATORS: Record<string, () => string> = {
  $randomUUID: () => crypto.randomUUID(),
  $randomAlphaNumeric: () => chars(ALNUM, 1),
  $randomBoolean: () => String(random() < 0.5),
  $randomColor: () => pick(COLORS),
  $randomHexColor: () => `#${chars(HEX, 6)}`,
  $randomAbbreviation: () => pick(["SQL", "PCI", "JSON", "HTTP", "XML", "RAM", "SSL", "TCP"]),
  $randomIP: () => [int(1, 254), int(0, 255), int(0, 255), int(1, 254)].join("."),
  $randomIPV6: () => Array.from({ length: 8 }, () => chars(HEX, 4)).join(":"),
  $randomMACAddress: () => Array.from({ length: 6 }, () => chars(HEX, 2)).join(":"),
  $randomPassword: () => chars(ALNUM + "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 15),
  $randomLocale: () => pick(["en", "fr", "de", "ja", "pt_BR", "es"]),
  $randomUserAgent: () =>
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${
      int(90, 130)
    }.0.0.0 Safari/537.36`,
  $randomProtocol: () => pick(["http", "https"]),
  $randomSemver: () => `${int(0, 9)}.${int(0, 9)}.${int(0, 9)}`,
  $randomFirstName: () => pick(FIRST),
  $randomLastName: () => pick(LAST),
  $randomFullName: () => `${pick(FIRST)} ${pick(LAST)}`,
  $randomNamePrefix: () => pick(["Mr.", "Mrs.", "Ms.", "Miss", "Dr."]),
  $randomNameSuffix: () => pick(["Jr.", "Sr.", "I", "II", "III", "MD", "PhD"]),
  $randomJobArea: () => pick(JOB_AREAS),
  $randomJobDescriptor: () => pick(JOB_DESCRIPTORS),
  $randomJobTitle: () => `${pick(JOB_DESCRIPTORS)} ${pick(JOB_AREAS)} ${pick(JOB_TYPES)}`,
  $randomJobType: () => pick(JOB_TYPES),
  $randomPhoneNumber: () => `${int(200, 999)}-${int(200, 999)}-${int(1000, 9999)}`,
  $randomPhoneNumberExt: () => `${int(1, 99)}-${int(200, 999)}-${int(200, 999)}-${int(1000, 9999)}`,
  $randomCity: () => pick(CITIES),
  $randomStreetName: () => `${pick(STREETS)} Street`,
  $randomStreetAddress: () => `${int(1, 9999)} ${pick(STREETS)} Street`,
  $randomCountry: () => pick(COUNTRIES)[0],
  $randomCountryCode: () => pick(COUNTRIES)[1],
  $randomLatitude: () => (random() * 180 - 90).toFixed(4),
  $randomLongitude: () => (random() * 360 - 180).toFixed(4),
  $randomAvatarImage: () => `https://i.pravatar.cc/150?u=${chars(HEX, 8)}`,
  $randomImageUrl: image("any"),
  // $randomAbstractImage … $randomTransportImage
  ...Object.fromEntries(
    IMAGE_TOPICS.map((t) => [`$random${t[0]!.toUpperCase()}${t.slice(1)}Image`, image(t)]),
  ),
  $randomImageDataUri: () =>
    "data:image/svg+xml;charset=UTF-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E",
  $randomBankAccount: () => chars("0123456789", 8),
  $randomBankAccountName: () => pick(["Savings Account", "Checking Account", "Money Market"]),
  $randomCreditCardMask: () => chars("0123456789", 4),
  $randomBankAccountBic: () => `${chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 6)}${chars(ALNUM, 2)}`,
  $randomBankAccountIban: () => `DE${chars("0123456789", 20)}`,
  $randomTransactionType: () => pick(["deposit", "withdrawal", "payment", "invoice"]),
  $randomCurrencyCode: () => pick(CURRENCIES)[0],
  $randomCurrencyName: () => pick(CURRENCIES)[1],
  $randomCurrencySymbol: () => pick(CURRENCIES)[2],
  $randomBitcoin: () =>
    `1${chars("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789", 33)}`,
  $randomPrice: () => (random() * 1000).toFixed(2),
  $randomCompanyName: () => `${pick(LAST)} ${pick(["Group", "LLC", "Inc", "and Sons"])}`,
  $randomCompanySuffix: () => pick(["Inc", "LLC", "Group", "and Sons"]),
  $randomBs: () => `${pick(VERBS)} ${pick(ADJECTIVES)} ${pick(NOUNS)}`,
  $randomBsAdjective: () => pick(ADJECTIVES),
  $randomBsBuzz: () => pick(VERBS),
  $randomBsNoun: () => pick(NOUNS),
  $randomCatchPhrase: () => `${capital(pick(ADJECTIVES))} ${pick(WORDS)} ${pick(NOUNS)}`,
  $randomCatchPhraseAdjective: () => pick(ADJECTIVES),
  $randomCatchPhraseDescriptor: () => pick(["24 hour", "dynamic", "global", "modular"]),
  $randomCatchPhraseNoun: () => pick(NOUNS),
  $randomDatabaseColumn: () => pick(["id", "title", "name", "email", "createdAt", "status"]),
  $randomDatabaseType: () => pick(["int", "varchar", "text", "boolean", "timestamp"]),
  $randomDatabaseCollation: () => pick(["utf8_general_ci", "utf8_bin", "ascii_bin"]),
  $randomDatabaseEngine: () => pick(["InnoDB", "MyISAM", "MEMORY", "ARCHIVE"]),
  $randomDateFuture: () => daysFrom(int(1, 365)),
  $randomDatePast: () => daysFrom(-int(1, 365)),
  $randomDateRecent: () => daysFrom(-int(0, 1)),
  $randomWeekday: () => pick(WEEKDAYS),
  $randomMonth: () => pick(MONTHS),
  $randomDomainName: () => `${domainWord()}.${pick(DOMAIN_SUFFIXES)}`,
  $randomDomainSuffix: () => pick(DOMAIN_SUFFIXES),
  $randomDomainWord: domainWord,
  $randomEmail: () => `${userName()}@${domainWord()}.${pick(DOMAIN_SUFFIXES)}`.toLowerCase(),
  $randomExampleEmail: () => `${userName()}@example.com`.toLowerCase(),
  $randomUserName: userName,
  $randomUrl: () => `https://${domainWord()}.${pick(DOMAIN_SUFFIXES)}`,
  $randomFileName: () => `${pick(WORDS)}_${pick(WORDS)}.${pick(MIME)[1]}`,
  $randomFileType: () => pick(["application", "image", "text", "audio", "video"]),
  $randomFileExt: () => pick(MIME)[1],
  $randomCommonFileName: () => `${pick(WORDS)}.${pick(MIME)[1]}`,
  $randomCommonFileType: () => pick(["application", "image", "text"]),
  $randomCommonFileExt: () => pick(MIME)[1],
  $randomFilePath: () => `/${pick(WORDS)}/${pick(WORDS)}.${pick(MIME)[1]}`,
  $randomDirectoryPath: () => `/${pick(WORDS)}/${pick(WORDS)}`,
  $randomMimeType: () => pick(MIME)[0],
  $randomNoun: () => pick(NOUNS),
  $randomVerb: () => pick(VERBS),
  $randomIngverb: () => pick(INGVERBS),
  $randomAdjective: () => pick(ADJECTIVES),
  $randomWord: () => pick(WORDS),
  $randomWords: () => words(int(2, 5)),
  $randomPhrase: () => `${capital(pick(VERBS))} the ${pick(ADJECTIVES)} ${pick(NOUNS)}!`,
  $randomLoremWord: () => pick(WORDS),
  $randomLoremWords: () => words(3),
  $randomLoremSentence: sentence,
  $randomLoremSentences: () => Array.from({ length: int(2, 4) }, sentence).join(" "),
  $randomLoremParagraph: paragraph,
  $randomLoremParagraphs: () => Array.from({ length: 3 }, paragraph).join("\n\n"),
  $randomLoremText: sentence,
  $randomLoremSlug: () => Array.from({ length: 3 }, () => pick(WORDS)).join("-"),
  $randomLoremLines: () => Array.from({ length: int(1, 5) }, sentence).join("\n"),
};

/**
 * A Postman dynamic variable's fresh value.
 *
 * @param name the variable, e.g. `$randomFirstName`
 * @returns its value, or undefined when Postman documents no such variable
 * @example
 * ```ts
 * postmanDynamicVariable("$randomEmail"); // e.g. "ann.smith42@orbit-nova.com"
 * ```
 */
export function postmanDynamicVariable(name: string): string | undefined {
  return Object.hasOwn(GENERATORS, name) ? GENERATORS[name]!() : undefined;
}

/** The names of the Postman dynamic variables this module provides. */
export const POSTMAN_DYNAMIC_VARIABLES: readonly string[] = Object.keys(GENERATORS);
