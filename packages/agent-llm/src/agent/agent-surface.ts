/**
 * The agent's own surface (basic catalog): what the model is doing, its short text replies, and —
 * for transports that carry only A2UI (SSE, WebSocket, REST) — a prompt box, since there the user
 * can only reach the agent through actions.
 */
import {
  A2UI_VERSION,
  type ActionEvent,
  BASIC_CATALOG_ID,
  type ComponentInstance,
  type Connection,
  emitVersionOf,
  type ServerMessage,
} from '@a2ui-ts/core';

/** Options of the agent surface. */
export interface AgentSurfaceOptions {
  /** Its surface id; the model may never use it. @default 'llm-agent' */
  surfaceId?: string;
  /**
   * Show a prompt box (a text field and a button) from the start. Turn it off where the host has
   * its own chat input (AG-UI, A2A): the surface then appears only to show status and replies.
   * @default true
   */
  prompt?: boolean;
  /** @default 'Describe a UI' */
  title?: string;
  /** @default 'What should the model build?' */
  promptLabel?: string;
  /** @default 'Generate' */
  submitLabel?: string;
}

/** The action the prompt button sends; its context carries `prompt`. */
export const PROMPT_ACTION_NAME = 'generate';

export const DEFAULT_AGENT_SURFACE_OPTIONS: Required<AgentSurfaceOptions> = {
  surfaceId: 'llm-agent',
  prompt: true,
  title: 'Describe a UI',
  promptLabel: 'What should the model build?',
  submitLabel: 'Generate',
};

/** Writes the agent surface of one connection, creating it on first use. */
export class AgentSurface {
  readonly options: Required<AgentSurfaceOptions>;
  readonly #connection: Connection;
  readonly #agentName: string;
  #created = false;

  constructor(connection: Connection, agentName: string, options: AgentSurfaceOptions = {}) {
    this.options = { ...DEFAULT_AGENT_SURFACE_OPTIONS, ...options };
    this.#connection = connection;
    this.#agentName = agentName;
  }

  get surfaceId(): string {
    return this.options.surfaceId;
  }

  /** Sends the surface if it is not on screen yet. */
  show(): void {
    if (this.#created || this.#connection.closed) return;
    this.#created = true;
    this.#connection.send(this.#messages());
  }

  /** Shows what the agent is doing (one line). */
  status(text: string): void {
    this.#set('/status', text);
  }

  /** Shows the model's text reply so far (`''` clears it). */
  reply(text: string): void {
    if (text === '' && !this.#created) return;
    this.#set('/reply', text);
  }

  /** The prompt of a prompt-button action, or `undefined` for any other action. */
  promptOf(action: ActionEvent): string | undefined {
    if (action.surfaceId !== this.surfaceId || action.name !== PROMPT_ACTION_NAME) return undefined;
    const prompt = action.context.prompt;
    return typeof prompt === 'string' && prompt.trim() !== '' ? prompt.trim() : undefined;
  }

  #set(path: string, value: string): void {
    if (this.#connection.closed) return;
    this.show();
    this.#connection.send({
      version: A2UI_VERSION,
      updateDataModel: { surfaceId: this.surfaceId, path, value },
    });
  }

  #messages(): ServerMessage[] {
    const { surfaceId, prompt, title, promptLabel, submitLabel } = this.options;
    // v1.0 has no theme and no heading variants: leave them out there rather than have the
    // conversion drop them (and report it) on every connection.
    const v10 = emitVersionOf(this.#connection) === 'v1.0';
    const required = {
      condition: { call: 'required', args: { value: { path: '/prompt' } } },
      message: 'Describe the UI first.',
    };
    const children = prompt
      ? ['agent-title', 'agent-prompt', 'agent-submit', 'agent-status', 'agent-reply']
      : ['agent-title', 'agent-status', 'agent-reply'];
    const components: ComponentInstance[] = [
      { id: 'root', component: 'Card', child: 'agent-column' },
      { id: 'agent-column', component: 'Column', children },
      { id: 'agent-title', component: 'Text', text: title, ...(v10 ? {} : { variant: 'h3' }) },
      { id: 'agent-status', component: 'Text', text: { path: '/status' }, variant: 'caption' },
      { id: 'agent-reply', component: 'Text', text: { path: '/reply' } },
    ];
    if (prompt) {
      components.push(
        {
          id: 'agent-prompt',
          component: 'TextField',
          label: promptLabel,
          value: { path: '/prompt' },
          variant: 'longText',
          checks: [required],
        },
        {
          id: 'agent-submit',
          component: 'Button',
          child: 'agent-submit-label',
          variant: 'primary',
          checks: [required],
          action: {
            event: { name: PROMPT_ACTION_NAME, context: { prompt: { path: '/prompt' } } },
          },
        },
        { id: 'agent-submit-label', component: 'Text', text: submitLabel },
      );
    }
    return [
      {
        version: A2UI_VERSION,
        createSurface: {
          surfaceId,
          catalogId: BASIC_CATALOG_ID,
          ...(v10 ? {} : { theme: { agentDisplayName: this.#agentName } }),
        },
      },
      {
        version: A2UI_VERSION,
        updateDataModel: {
          surfaceId,
          value: { prompt: '', status: `Connected to ${this.#agentName}.`, reply: '' },
        },
      },
      { version: A2UI_VERSION, updateComponents: { surfaceId, components } },
    ];
  }
}
