/**
 * A v1.0 surface exercising what v1.0 changed for renderers: accessibility `live`/`hidden`
 * (the cases of the conformance suite's `core/accessibility.yaml`, plus a hidden button), a
 * named and described Divider, a described Text, a
 * ValidationResult warning, TextField `placeholder` and Slider `steps`.
 */
import { V1_0_BASIC_CATALOG_ID } from '@a2ui-ts/core';

const surfaceId = 'v1-a11y';

/** The stream: one v1.0 createSurface with its components and data model inline. */
export const V1_ACCESSIBILITY_STREAM: readonly unknown[] = [
  {
    version: 'v1.0',
    createSurface: {
      surfaceId,
      catalogId: V1_0_BASIC_CATALOG_ID,
      components: [
        {
          id: 'root',
          component: 'Column',
          children: [
            'btn1',
            'status_text',
            'alert_box',
            'hidden_group',
            'rule',
            'note',
            'card',
            'volume',
          ],
        },
        {
          id: 'btn1',
          component: 'Button',
          child: 'btn1_label',
          action: { event: { name: 'mute' } },
          accessibility: {
            label: 'Mute Notifications',
            description: 'Silences notifications about this conversation',
          },
        },
        { id: 'btn1_label', component: 'Text', text: 'Mute' },
        {
          id: 'status_text',
          component: 'Text',
          text: 'Status: Active',
          accessibility: { live: 'polite' },
        },
        {
          id: 'alert_box',
          component: 'Text',
          text: 'Connection Lost!',
          accessibility: { label: 'Critical Alert', live: 'assertive' },
        },
        {
          id: 'hidden_group',
          component: 'Row',
          children: ['visible_text', 'decorative_icon', 'hidden_button'],
          accessibility: { hidden: { path: '/decorationHidden' } },
        },
        { id: 'visible_text', component: 'Text', text: 'Visible Content' },
        { id: 'decorative_icon', component: 'Icon', name: 'star' },
        {
          id: 'hidden_button',
          component: 'Button',
          child: 'hidden_label',
          action: { event: { name: 'decorate' } },
        },
        { id: 'hidden_label', component: 'Text', text: 'Decorate' },
        {
          id: 'rule',
          component: 'Divider',
          accessibility: { label: 'Payment', description: 'Card details follow' },
        },
        {
          id: 'note',
          component: 'Text',
          text: 'Charged today',
          accessibility: { description: 'In euros' },
        },
        {
          id: 'card',
          component: 'TextField',
          label: 'Card number',
          placeholder: 'e.g. 4111 1111 1111 1111',
          value: { path: '/card' },
          checks: [{ condition: { path: '/cardCheck' }, message: 'Check the card number.' }],
        },
        {
          id: 'volume',
          component: 'Slider',
          label: 'Volume',
          min: 0,
          max: 10,
          steps: 5,
          value: { path: '/volume' },
        },
      ],
      dataModel: {
        decorationHidden: true,
        card: '4111',
        cardCheck: { valid: false, message: 'Unusual card number.', severity: 'warning' },
        volume: 4,
      },
    },
  },
];
