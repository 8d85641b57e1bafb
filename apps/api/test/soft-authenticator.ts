import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator (ES256, attestation "none"), enough to register a passkey and answer a
 * login challenge the way a browser and a security key would, so the server's checks run for real.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  private authData(withCredential: boolean): Buffer {
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    // User present (0x01), user verified (0x04), attested credential data (0x40) at registration.
    const flags = Buffer.from([withCredential ? 0x45 : 0x05]);
    this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    if (!withCredential) return Buffer.concat([rpIdHash, flags, counter]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([
      rpIdHash,
      flags,
      counter,
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      this.coseKey(),
    ]);
  }

  /** CBOR map {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}. */
  private coseKey(): Buffer {
    const x = Buffer.from(this.publicJwk.x, 'base64url');
    const y = Buffer.from(this.publicJwk.y, 'base64url');
    return Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
      x,
      Buffer.from([0x22, 0x58, 0x20]),
      y,
    ]);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The answer to `navigator.credentials.create()` for the given options. */
  register(options: { challenge: string }) {
    const authData = this.authData(true);
    const text = (value: string) => Buffer.concat([Buffer.from([0x60 + value.length]), Buffer.from(value)]);
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3]),
      text('fmt'),
      text('none'),
      text('attStmt'),
      Buffer.from([0xa0]),
      text('authData'),
      Buffer.from([0x59, authData.length >> 8, authData.length & 255]),
      authData,
    ]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge).toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['usb'],
      },
    };
  }

  /** The answer to `navigator.credentials.get()` for the given options. */
  authenticate(options: { challenge: string }) {
    const authData = this.authData(false);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, this.privateKey).toString('base64url'),
      },
    };
  }
}
