/**
 * Hostile agent input for the safety tests (jsdom and real Chromium): every vector sets
 * `window.__xss` if it ever executes.
 */
const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

const JS = 'javascript:window.__xss=1';
const HTML_PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"></svg>',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<a href="javascript:window.__xss=1">html link</a>',
];
const MARKDOWN_PAYLOADS = [
  `[markdown link](${JS})`,
  '[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)',
  `![markdown image](${JS})`,
  '![onerror image](x" onerror="window.__xss=1)',
  `<${JS}>`,
  '[entity link](&#106;avascript:window.__xss=1)',
  '**bold** <b onmouseover="window.__xss=1">hover</b>',
];
const URL_PAYLOADS = [
  JS,
  ' javascript:window.__xss=1',
  'java\tscript:window.__xss=1',
  'JaVaScRiPt:window.__xss=1',
  'data:text/html,<script>window.__xss=1</script>',
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='window.__xss=1'/>",
  'vbscript:msgbox(1)',
  '&#106;avascript:window.__xss=1',
];

/** `openUrl.url` must be a schema-valid URI, so these are the ones that reach the client. */
const OPEN_URL_PAYLOADS = [
  JS,
  'JaVaScRiPt:window.__xss=1',
  'javascript:window.__xss=1//https://a2ui.org',
  'data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
];

/** Ids of the Buttons whose actions try to open hostile URLs. */
export const XSS_BUTTON_IDS = OPEN_URL_PAYLOADS.map((_, index) => `open-${index}`);

/** One surface full of hostile values, shaped to pass schema validation where it can. */
export const XSS_STREAM: unknown[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'xss', catalogId: BASIC } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'xss',
      components: [
        {
          id: 'root',
          component: 'Column',
          children: [
            ...HTML_PAYLOADS.map((_, index) => `html-${index}`),
            ...MARKDOWN_PAYLOADS.map((_, index) => `md-${index}`),
            ...URL_PAYLOADS.map((_, index) => `img-${index}`),
            ...URL_PAYLOADS.map((_, index) => `video-${index}`),
            ...URL_PAYLOADS.map((_, index) => `audio-${index}`),
            ...XSS_BUTTON_IDS,
            'field',
            'picker',
            'tabs',
            'icon',
            'bound-text',
          ],
        },
        ...HTML_PAYLOADS.map((text, index) => ({ id: `html-${index}`, component: 'Text', text })),
        ...MARKDOWN_PAYLOADS.map((text, index) => ({ id: `md-${index}`, component: 'Text', text })),
        ...URL_PAYLOADS.map((_, index) => ({
          id: `img-${index}`,
          component: 'Image',
          url: { path: `/urls/${index}` },
          description: 'hostile image',
        })),
        ...URL_PAYLOADS.map((_, index) => ({
          id: `video-${index}`,
          component: 'Video',
          url: { path: `/urls/${index}` },
        })),
        ...URL_PAYLOADS.map((_, index) => ({
          id: `audio-${index}`,
          component: 'AudioPlayer',
          url: { path: `/urls/${index}` },
          description: HTML_PAYLOADS[0],
        })),
        ...XSS_BUTTON_IDS.flatMap((id, index) => [
          {
            id,
            component: 'Button',
            child: `${id}-label`,
            action: { functionCall: { call: 'openUrl', args: { url: OPEN_URL_PAYLOADS[index] } } },
          },
          { id: `${id}-label`, component: 'Text', text: `Open hostile URL ${index}` },
        ]),
        { id: 'field', component: 'TextField', label: HTML_PAYLOADS[1], value: { path: '/field' } },
        {
          id: 'picker',
          component: 'ChoicePicker',
          label: HTML_PAYLOADS[2],
          options: [{ label: HTML_PAYLOADS[1], value: '"><script>window.__xss=1</script>' }],
          value: { path: '/picked' },
        },
        { id: 'tabs', component: 'Tabs', tabs: [{ title: HTML_PAYLOADS[0], child: 'tab-body' }] },
        { id: 'tab-body', component: 'Text', text: { path: '/markup' } },
        { id: 'icon', component: 'Icon', name: { path: '/iconPath' } },
        {
          id: 'bound-text',
          component: 'Text',
          text: { call: 'formatString', args: { value: 'Hello ${/markup}' } },
        },
      ],
    },
  },
  {
    version: 'v0.9',
    updateDataModel: {
      surfaceId: 'xss',
      value: {
        urls: URL_PAYLOADS,
        field: HTML_PAYLOADS[0],
        picked: [],
        markup: HTML_PAYLOADS.join(' '),
        iconPath: { svgPath: '"/><script>window.__xss=1</script>' },
      },
    },
  },
];
