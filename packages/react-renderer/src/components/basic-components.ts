/**
 * The built-in implementations of the v0.9 basic catalog (18 components, §9) and of the minimal
 * catalog (5, §10.4).
 */
import type { A2uiComponent } from '../registry/a2ui-component.js';
import { markBuiltin } from '../registry/builtin-components.js';
import { AudioPlayer } from './audio-player.js';
import { Button } from './button.js';
import { Card } from './card.js';
import { CheckBox } from './check-box.js';
import { ChoicePicker } from './choice-picker.js';
import { DateTimeInput } from './date-time-input.js';
import { Divider } from './divider.js';
import { Icon } from './icon.js';
import { Image } from './image.js';
import { List } from './list.js';
import { Modal } from './modal.js';
import { Column, Row } from './row.js';
import { Slider } from './slider.js';
import { Tabs } from './tabs.js';
import { Text } from './text.js';
import { TextField } from './text-field.js';
import { Video } from './video.js';

/**
 * Type name → implementation for the 18 basic components. Spread it into your own catalog's
 * registration to reuse them.
 */
export const BASIC_COMPONENTS: Readonly<Record<string, A2uiComponent>> = Object.freeze({
  Text: markBuiltin(Text),
  Image: markBuiltin(Image),
  Icon: markBuiltin(Icon),
  Video: markBuiltin(Video),
  AudioPlayer: markBuiltin(AudioPlayer),
  Row: markBuiltin(Row),
  Column: markBuiltin(Column),
  List: markBuiltin(List),
  Card: markBuiltin(Card),
  Tabs: markBuiltin(Tabs),
  Modal: markBuiltin(Modal),
  Divider: markBuiltin(Divider),
  Button: markBuiltin(Button),
  TextField: markBuiltin(TextField),
  CheckBox: markBuiltin(CheckBox),
  ChoicePicker: markBuiltin(ChoicePicker),
  Slider: markBuiltin(Slider),
  DateTimeInput: markBuiltin(DateTimeInput),
});

/** Type name → implementation for the minimal catalog: the same components, fewer of them. */
export const MINIMAL_COMPONENTS: Readonly<Record<string, A2uiComponent>> = Object.freeze({
  Text: BASIC_COMPONENTS.Text!,
  Row: BASIC_COMPONENTS.Row!,
  Column: BASIC_COMPONENTS.Column!,
  Button: BASIC_COMPONENTS.Button!,
  TextField: BASIC_COMPONENTS.TextField!,
});
