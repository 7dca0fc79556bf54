/**
 * How the board's refusals name a caller and whom they send it to: board owners hand out roles and tokens.
 *
 * @packageDocumentation
 */
import type { RefusalGuidance } from '@recourse/server';

/** The board's {@link RefusalGuidance}: members are named `Member Ada (m_1)`; owners manage roles and tokens. */
export const BOARD_GUIDANCE: RefusalGuidance = {
  caller: (principal) => `Member ${principal.name ?? principal.id} (${principal.id})`,
  role: 'Ask a board owner for a role that holds it, or leave this step to a member who holds one.',
  credential: 'Ask a board owner for a new token and restart the client with it.',
  limit: 'Ask a board owner to raise the limit for your role; waiting will not make room for this call.',
};
