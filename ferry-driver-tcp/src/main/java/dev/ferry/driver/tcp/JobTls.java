package dev.ferry.driver.tcp;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.TrustManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * TLS for one rank's connections ({@code FERRY_TCP_TLS=on}), keyed by the job key the launcher
 * handed out, so that it works the same under every launcher and needs no files: each rank makes
 * an EC P-256 key pair and a self-signed certificate whose subject is the tag of its public key
 * under the job key ({@link JobSecret.Use#CERTIFICATE}); a peer is trusted when its certificate is
 * self-signed and carries the right tag, which only a holder of the job key can make. Both sides
 * show certificates (client authentication is required); TLS 1.3 only.
 *
 * <p>The certificate is written here in DER (a version 3 certificate with no extensions: nothing
 * the JDK offers makes one without internal APIs); the JDK parses it back, checking its form, and
 * does all the cryptography.
 */
final class JobTls {
    private static final String PROTOCOL = "TLSv1.3";
    private static final char[] PASSWORD = "ferry".toCharArray(); // in memory only: the store never leaves this object
    /** ecdsa-with-SHA256, 1.2.840.10045.4.3.2, as an AlgorithmIdentifier. */
    private static final byte[] ECDSA_SHA256 = HexFormat.of().parseHex("300a06082a8648ce3d040302");
    /** commonName, 2.5.4.3. */
    private static final byte[] CN = HexFormat.of().parseHex("0603550403");

    private final SSLContext context;

    JobTls(JobSecret secret) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = g.generateKeyPair();
            X509Certificate cert = selfSigned(pair, subject(secret, pair.getPublic().getEncoded()));
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("rank", pair.getPrivate(), PASSWORD, new X509Certificate[] {cert});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, PASSWORD);
            context = SSLContext.getInstance(PROTOCOL);
            context.init(kmf.getKeyManagers(), new TrustManager[] {new JobTrust(secret)}, new SecureRandom());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new dev.ferry.spi.DriverException("tcp: cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** An engine for one connection: the connecting side is the TLS client. */
    SSLEngine engine(boolean client) {
        SSLEngine e = context.createSSLEngine();
        e.setUseClientMode(client);
        SSLParameters p = e.getSSLParameters();
        p.setProtocols(new String[] {PROTOCOL});
        if (!client) {
            p.setNeedClientAuth(true);
        }
        e.setSSLParameters(p);
        return e;
    }

    /** The common name a certificate for this public key must carry: its tag under the job key, in hex. */
    static String subject(JobSecret secret, byte[] publicKey) {
        return HexFormat.of().formatHex(secret.mac(JobSecret.Use.CERTIFICATE, ByteBuffer.wrap(publicKey)));
    }

    /** Trusts a peer whose one certificate is self-signed and names its key's tag under the job key. */
    static final class JobTrust extends X509ExtendedTrustManager {
        private final JobSecret secret;

        JobTrust(JobSecret secret) {
            this.secret = secret;
        }

        void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length != 1) {
                throw new CertificateException("a Ferry peer shows one certificate, not " + (chain == null ? 0 : chain.length));
            }
            X509Certificate c = chain[0];
            try {
                c.verify(c.getPublicKey());
            } catch (GeneralSecurityException e) {
                throw new CertificateException("the peer's certificate is not self-signed: " + e.getMessage(), e);
            }
            String expected = "CN=" + subject(secret, c.getPublicKey().getEncoded());
            if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                    c.getSubjectX500Principal().getName().getBytes(StandardCharsets.US_ASCII))) {
                throw new CertificateException("the peer's certificate is not made with this job's key");
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    // ---- a self-signed certificate in DER -----------------------------------------------------

    static X509Certificate selfSigned(KeyPair pair, String commonName) throws GeneralSecurityException {
        byte[] name = der(0x30, der(0x31, der(0x30, CN, der(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] validity = der(0x30, time(now.minusDays(1)), time(now.plusYears(10)));
        byte[] serial = new byte[9];
        new SecureRandom().nextBytes(serial);
        serial[0] = (byte) ((serial[0] & 0x3f) | 0x40); // positive, no leading zero
        byte[] tbs = der(0x30,
                der(0xa0, der(0x02, new byte[] {2})), // version 3
                der(0x02, serial),
                ECDSA_SHA256,
                name,
                validity,
                name,
                pair.getPublic().getEncoded()); // SubjectPublicKeyInfo, already DER
        Signature s = Signature.getInstance("SHA256withECDSA");
        s.initSign(pair.getPrivate());
        s.update(tbs);
        byte[] sig = s.sign();
        byte[] bits = new byte[sig.length + 1]; // BIT STRING: no unused bits
        System.arraycopy(sig, 0, bits, 1, sig.length);
        byte[] cert = der(0x30, tbs, ECDSA_SHA256, der(0x03, bits));
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(cert));
    }

    /** UTCTime, valid to 2049: enough for a job's life. */
    private static byte[] time(ZonedDateTime t) {
        return der(0x17, t.format(DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")).getBytes(StandardCharsets.US_ASCII));
    }

    /** A DER element: tag, definite length, the contents concatenated. */
    static byte[] der(int tag, byte[]... contents) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (byte[] c : contents) {
            body.writeBytes(c);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = body.size();
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }
}
