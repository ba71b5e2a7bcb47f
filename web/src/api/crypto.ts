/**
 * Encrypts a password for the server with RSA-OAEP (SHA-256) under its public key (base64 SPKI).
 * WebCrypto exists only in secure contexts (HTTPS or localhost); a console opened over plain
 * HTTP on a LAN address falls back to node-forge's RSA-OAEP, loaded only then.
 */
export const encryptForServer = async (publicKeyB64: string, text: string): Promise<string> => {
  const der = Uint8Array.from(atob(publicKeyB64), (c) => c.charCodeAt(0));
  const data = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    const key = await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, data));
    return btoa(String.fromCharCode(...cipher));
  }
  const { default: forge } = await import('node-forge');
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(String.fromCharCode(...der)));
  const publicKey = forge.pki.publicKeyFromAsn1(asn1) as import('node-forge').pki.rsa.PublicKey;
  const bytes = String.fromCharCode(...data);
  const cipher = publicKey.encrypt(bytes, 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
};
