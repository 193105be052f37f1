/**
 * Icons of the basic catalog (digest §9: 59 names), bundled as SVG path data from Material Design
 * Icons (`@mdi/js`, Apache-2.0) so that rendering an icon never makes a network request.
 */
import {
  mdiAccount,
  mdiAccountCircle,
  mdiAlert,
  mdiAlertCircle,
  mdiArrowLeft,
  mdiArrowRight,
  mdiBell,
  mdiBellOff,
  mdiCalendar,
  mdiCalendarToday,
  mdiCamera,
  mdiCart,
  mdiCellphone,
  mdiCheck,
  mdiCheckCircle,
  mdiChevronDown,
  mdiChevronLeft,
  mdiChevronRight,
  mdiChevronUp,
  mdiClockOutline,
  mdiClose,
  mdiCloseCircle,
  mdiCog,
  mdiContentCopy,
  mdiCreditCard,
  mdiDelete,
  mdiDotsHorizontal,
  mdiDotsVertical,
  mdiDownload,
  mdiEmail,
  mdiExclamation,
  mdiEye,
  mdiEyeOff,
  mdiFastForward,
  mdiFilterVariant,
  mdiFolder,
  mdiHeart,
  mdiHeartOutline,
  mdiHelpCircle,
  mdiHelpCircleOutline,
  mdiHome,
  mdiImage,
  mdiInformation,
  mdiLink,
  mdiLock,
  mdiLockOpenVariant,
  mdiMagnify,
  mdiMapMarker,
  mdiMenu,
  mdiOpenInNew,
  mdiPaperclip,
  mdiPause,
  mdiPencil,
  mdiPhone,
  mdiPlay,
  mdiPlus,
  mdiPrinter,
  mdiRefresh,
  mdiRewind,
  mdiSend,
  mdiShareVariant,
  mdiSkipNext,
  mdiSkipPrevious,
  mdiStar,
  mdiStarHalfFull,
  mdiStarOutline,
  mdiStop,
  mdiThumbDown,
  mdiThumbUp,
  mdiUpload,
  mdiVolumeHigh,
  mdiVolumeLow,
  mdiVolumeMedium,
  mdiVolumeOff,
  mdiWeb,
} from '@mdi/js';

/** The 59 icon names of the v0.9 basic catalog (§9 Icon `name` enum). */
export type BasicIconName =
  | 'accountCircle'
  | 'add'
  | 'arrowBack'
  | 'arrowForward'
  | 'attachFile'
  | 'calendarToday'
  | 'call'
  | 'camera'
  | 'check'
  | 'close'
  | 'delete'
  | 'download'
  | 'edit'
  | 'event'
  | 'error'
  | 'fastForward'
  | 'favorite'
  | 'favoriteOff'
  | 'folder'
  | 'help'
  | 'home'
  | 'info'
  | 'locationOn'
  | 'lock'
  | 'lockOpen'
  | 'mail'
  | 'menu'
  | 'moreVert'
  | 'moreHoriz'
  | 'notificationsOff'
  | 'notifications'
  | 'pause'
  | 'payment'
  | 'person'
  | 'phone'
  | 'photo'
  | 'play'
  | 'print'
  | 'refresh'
  | 'rewind'
  | 'search'
  | 'send'
  | 'settings'
  | 'share'
  | 'shoppingCart'
  | 'skipNext'
  | 'skipPrevious'
  | 'star'
  | 'starHalf'
  | 'starOff'
  | 'stop'
  | 'upload'
  | 'visibility'
  | 'visibilityOff'
  | 'volumeDown'
  | 'volumeMute'
  | 'volumeOff'
  | 'volumeUp'
  | 'warning';

/** SVG path data (24×24 viewBox) of every basic icon name. */
export const BASIC_ICON_PATHS: Readonly<Record<BasicIconName, string>> = {
  accountCircle: mdiAccountCircle,
  add: mdiPlus,
  arrowBack: mdiArrowLeft,
  arrowForward: mdiArrowRight,
  attachFile: mdiPaperclip,
  calendarToday: mdiCalendarToday,
  call: mdiPhone,
  camera: mdiCamera,
  check: mdiCheck,
  close: mdiClose,
  delete: mdiDelete,
  download: mdiDownload,
  edit: mdiPencil,
  event: mdiCalendar,
  error: mdiAlertCircle,
  fastForward: mdiFastForward,
  favorite: mdiHeart,
  favoriteOff: mdiHeartOutline,
  folder: mdiFolder,
  help: mdiHelpCircle,
  home: mdiHome,
  info: mdiInformation,
  locationOn: mdiMapMarker,
  lock: mdiLock,
  lockOpen: mdiLockOpenVariant,
  mail: mdiEmail,
  menu: mdiMenu,
  moreVert: mdiDotsVertical,
  moreHoriz: mdiDotsHorizontal,
  notificationsOff: mdiBellOff,
  notifications: mdiBell,
  pause: mdiPause,
  payment: mdiCreditCard,
  person: mdiAccount,
  phone: mdiCellphone,
  photo: mdiImage,
  play: mdiPlay,
  print: mdiPrinter,
  refresh: mdiRefresh,
  rewind: mdiRewind,
  search: mdiMagnify,
  send: mdiSend,
  settings: mdiCog,
  share: mdiShareVariant,
  shoppingCart: mdiCart,
  skipNext: mdiSkipNext,
  skipPrevious: mdiSkipPrevious,
  star: mdiStar,
  starHalf: mdiStarHalfFull,
  starOff: mdiStarOutline,
  stop: mdiStop,
  upload: mdiUpload,
  visibility: mdiEye,
  visibilityOff: mdiEyeOff,
  volumeDown: mdiVolumeMedium,
  volumeMute: mdiVolumeLow,
  volumeOff: mdiVolumeOff,
  volumeUp: mdiVolumeHigh,
  warning: mdiAlert,
};

/**
 * Material Symbols spellings an agent may bind (example 07 binds `priority_high`), including the
 * names the reference React renderer maps basic names to.
 */
const ALIASES: Readonly<Record<string, string>> = {
  play_arrow: mdiPlay,
  fast_rewind: mdiRewind,
  favorite_border: mdiHeartOutline,
  star_border: mdiStarOutline,
  priority_high: mdiExclamation,
  check_circle: mdiCheckCircle,
  cancel: mdiCloseCircle,
  schedule: mdiClockOutline,
  thumb_up: mdiThumbUp,
  thumb_down: mdiThumbDown,
  chevron_left: mdiChevronLeft,
  chevron_right: mdiChevronRight,
  expand_more: mdiChevronDown,
  expand_less: mdiChevronUp,
  open_in_new: mdiOpenInNew,
  content_copy: mdiContentCopy,
  language: mdiWeb,
  link: mdiLink,
  filter_list: mdiFilterVariant,
};

/** Drawn for a name nothing matches, so the gap stays visible. */
export const MISSING_ICON_PATH = mdiHelpCircleOutline;

const toCamelCase = (name: string): string =>
  name.replace(/[-_ ]+([a-z0-9])/gi, (_, letter: string) => letter.toUpperCase());

/**
 * The path data of icon `name`: a basic name (`calendarToday`), its snake_case or kebab-case
 * spelling (`calendar_today`), or a known Material Symbols alias (`play_arrow`).
 *
 * @returns SVG path data for a 24×24 viewBox, or `undefined` for an unknown name
 */
export function resolveIconPath(name: string): string | undefined {
  if (Object.hasOwn(ALIASES, name)) return ALIASES[name];
  const camel = toCamelCase(name.trim());
  return Object.hasOwn(BASIC_ICON_PATHS, camel)
    ? BASIC_ICON_PATHS[camel as BasicIconName]
    : undefined;
}
