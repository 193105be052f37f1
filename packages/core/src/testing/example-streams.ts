/**
 * The official A2UI v0.9 example streams (Apache-2.0, Google LLC; see `fixtures/NOTICE.md`), as
 * data for tests of every package.
 */

import type { ServerMessage } from '../protocol/messages.js';
import calendarDay from './fixtures/basic/03_calendar-day.json' with { type: 'json' };
import taskCard from './fixtures/basic/07_task-card.json' with { type: 'json' };
import loginForm from './fixtures/basic/09_login-form.json' with { type: 'json' };
import softwarePurchase from './fixtures/basic/19_software-purchase.json' with { type: 'json' };
import recipeCard from './fixtures/basic/24_recipe-card.json' with { type: 'json' };
import movieCard from './fixtures/basic/29_movie-card.json' with { type: 'json' };
import liveInvitationBuilder from './fixtures/basic/30_live-invitation-builder.json' with {
  type: 'json',
};
import incrementalDashboard from './fixtures/basic/31_incremental-dashboard.json' with {
  type: 'json',
};
import advancedFormValidator from './fixtures/basic/32_advanced-form-validator.json' with {
  type: 'json',
};
import childListTemplate from './fixtures/basic/34_child-list-template.json' with { type: 'json' };
import markdownText from './fixtures/basic/35_markdown-text.json' with { type: 'json' };
import modal from './fixtures/basic/36_modal.json' with { type: 'json' };
import interactiveButton from './fixtures/minimal/3_interactive_button.json' with { type: 'json' };
import capitalizedText from './fixtures/minimal/6_capitalized_text.json' with { type: 'json' };
import incremental from './fixtures/minimal/7_incremental.json' with { type: 'json' };

/** One example: the sample-file format `{name, description, messages}` plus its file name. */
export interface ExampleStream {
  readonly file: string;
  readonly catalog: 'basic' | 'minimal';
  readonly name: string;
  readonly description: string;
  readonly messages: readonly ServerMessage[];
}

const entry = (
  file: string,
  catalog: 'basic' | 'minimal',
  sample: { name: string; description: string; messages: unknown[] },
): ExampleStream => ({
  file,
  catalog,
  name: sample.name,
  description: sample.description,
  messages: sample.messages as ServerMessage[],
});

/** Every official example stream shipped with this package, basic catalog first. */
export const EXAMPLE_STREAMS: readonly ExampleStream[] = [
  entry('03_calendar-day.json', 'basic', calendarDay),
  entry('07_task-card.json', 'basic', taskCard),
  entry('09_login-form.json', 'basic', loginForm),
  entry('19_software-purchase.json', 'basic', softwarePurchase),
  entry('24_recipe-card.json', 'basic', recipeCard),
  entry('29_movie-card.json', 'basic', movieCard),
  entry('30_live-invitation-builder.json', 'basic', liveInvitationBuilder),
  entry('31_incremental-dashboard.json', 'basic', incrementalDashboard),
  entry('32_advanced-form-validator.json', 'basic', advancedFormValidator),
  entry('34_child-list-template.json', 'basic', childListTemplate),
  entry('35_markdown-text.json', 'basic', markdownText),
  entry('36_modal.json', 'basic', modal),
  entry('3_interactive_button.json', 'minimal', interactiveButton),
  entry('6_capitalized_text.json', 'minimal', capitalizedText),
  entry('7_incremental.json', 'minimal', incremental),
];
