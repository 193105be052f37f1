/**
 * The page's A2UI version switch: which versions the client offers the server. `auto` offers
 * every version the client reads and lets the server pick (its agent's preference); the others
 * offer one version only, so the server speaks it or refuses (HTTP 406, shown as the link error).
 */

/** One choice of the version switch. */
export interface VersionChoice {
  /** The `?version=` value. */
  readonly id: 'auto' | 'v1.0' | 'v0.9';
  readonly label: string;
  /** What the client offers; `undefined`: its transport's default, every version. */
  readonly offeredVersions: readonly string[] | undefined;
}

/** The choices, `auto` first (the default). */
export const VERSION_CHOICES: readonly VersionChoice[] = [
  { id: 'auto', label: 'Auto', offeredVersions: undefined },
  { id: 'v1.0', label: 'v1.0', offeredVersions: ['v1.0'] },
  { id: 'v0.9', label: 'v0.9', offeredVersions: ['v0.9'] },
];

/** The choice a `?version=` value names; `auto` for none or an unknown one. */
export function versionChoiceOf(id: string | null | undefined): VersionChoice {
  return VERSION_CHOICES.find((choice) => choice.id === id) ?? VERSION_CHOICES[0]!;
}
