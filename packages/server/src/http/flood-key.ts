/**
 * The key the flood guard counts a request under: a member's principal for a request whose credential was
 * accepted, otherwise the client's address normalised so that one machine or one network cannot take many
 * budgets by changing its source address.
 *
 * @packageDocumentation
 */
import ipaddr from 'ipaddr.js';

/** Who a request is counted for: an authenticated member, or the client address of everything else. */
export type FloodSubject =
  | { readonly principal: string }
  | {
      /** The client address as the host saw it (or as the `clientAddress` option reported it). */
      readonly address: string;
    };

/** The one key every loopback address (127.0.0.0/8, `::ffff:127.x.x.x`, `::1`) is counted under. */
export const LOOPBACK_FLOOD_KEY = 'address:loopback';

/**
 * The flood key of `subject`: `principal:<id>` for a member; for an address, {@link LOOPBACK_FLOOD_KEY} for all
 * of loopback, `address:<prefix>::/64` for other IPv6 addresses (one network's /64 is one client),
 * `address:<a.b.c.d>` for other IPv4 addresses (IPv4-mapped IPv6 included), and `address:<text>` for anything
 * that is not an IP address (a custom `clientAddress` may report such keys).
 */
export function floodKey(subject: FloodSubject): string {
  return 'principal' in subject
    ? `principal:${subject.principal}`
    : `address:${normaliseAddress(subject.address)}`;
}

/**
 * Normalises a client address for flood counting: `loopback` for any loopback address, the /64 prefix of an
 * IPv6 address (`2001:db8:1:2::/64`), the dotted form of an IPv4 address (also when sent IPv4-mapped), and the
 * text unchanged when it is not an IP address.
 */
export function normaliseAddress(address: string): string {
  const text = address.trim();
  if (!ipaddr.isValid(text)) return text;
  const parsed = ipaddr.process(text);
  if (parsed.range() === 'loopback') return 'loopback';
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
