/**
 * The storage adapter `oidc-provider` asks for, over an {@link OAuthStore}: one class whose instances each serve
 * one model (Session, Interaction, AuthorizationCode, AccessToken, RefreshToken, Client, Grant, …).
 *
 * @packageDocumentation
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { OAuthStore } from './oauth-store.ts';

const epoch = (): number => Math.floor(Date.now() / 1000);

/** Builds the adapter class `oidc-provider` instantiates once per model, all backed by `store`. */
export function adapterFor(store: OAuthStore): new (model: string) => Adapter {
  return class BoardOAuthAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await store.upsertRecord({
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        accountId: payload.accountId ?? null,
        expiresAt: expiresIn > 0 ? epoch() + expiresIn : null,
        consumedAt: null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      // Access tokens are returned after expiry too: the library checks `exp` itself, which lets the resource
      // server tell an expired token (the client should refresh) from an unknown one.
      const record = await store.findRecord(this.model, id);
      return this.model === 'AccessToken' ? payloadOf(record) : live(record);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return live(await store.findRecordByUid(this.model, uid));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return live(await store.findRecordByUserCode(this.model, userCode));
    }

    async consume(id: string): Promise<void> {
      await store.consumeRecord(this.model, id, epoch());
    }

    async destroy(id: string): Promise<void> {
      await store.destroyRecord(this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.destroyGrantRecords(grantId);
    }
  };
}

type StoredRecord = Awaited<ReturnType<OAuthStore['findRecord']>>;

function live(record: StoredRecord): AdapterPayload | undefined {
  if (record === undefined) return undefined;
  if (record.expiresAt !== null && record.expiresAt <= epoch()) return undefined;
  return payloadOf(record);
}

function payloadOf(record: StoredRecord): AdapterPayload | undefined {
  if (record === undefined) return undefined;
  const payload = JSON.parse(record.payload) as AdapterPayload;
  return record.consumedAt === null ? payload : { ...payload, consumed: record.consumedAt };
}
