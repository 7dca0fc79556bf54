/**
 * Tiny media payloads for the conformance fixtures: a 1×1 green PNG and a silent 4-sample WAV, both generated
 * for this project.
 *
 * @packageDocumentation
 */

/** A 1×1 PNG (one green pixel), base64. */
export const FIXTURE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPQqzUCAAG6AN7Eir+IAAAAAElFTkSuQmCC';

/** A WAV file of four silent 16-bit mono samples at 8 kHz, base64. */
export const FIXTURE_WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAAAAAAAAAA==';
