/**
 * A fake tool-calling chat model for the LangChain example: it answers with the scripted `AIMessage`s in order
 * (tool calls included) and records every list of messages it was given, so the example can show what the
 * model read. LangChain's own fakes (`FakeListChatModel`) answer with text only.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

export class ScriptedChatModel extends BaseChatModel {
  /** Every prompt the model was given, in order. */
  readonly prompts: BaseMessage[][] = [];
  readonly #script: AIMessage[];

  constructor(script: AIMessage[]) {
    super({});
    this.#script = [...script];
  }

  _llmType(): string {
    return 'scripted';
  }

  /** Tools are part of the script already; binding them changes nothing. */
  override bindTools(): this {
    return this;
  }

  _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push([...messages]);
    const next = this.#script.shift();
    if (next === undefined)
      throw new Error(`The script has no answer left for prompt ${String(this.prompts.length)}.`);
    return Promise.resolve({
      generations: [{ message: next, text: typeof next.content === 'string' ? next.content : '' }],
    });
  }
}
