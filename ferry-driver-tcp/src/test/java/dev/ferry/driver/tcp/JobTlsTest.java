package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-rank certificate: well formed, and trusted only when made with the job's key for its own public key. */
class JobTlsTest {
    private static final JobSecret JOB = HandshakeTest.secret("job");

    private static KeyPair pair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    @Test
    void aCertificateForItsOwnKeyUnderTheJobsKeyIsTrusted() throws Exception {
        KeyPair p = pair();
        X509Certificate c = JobTls.selfSigned(p, JobTls.subject(JOB, p.getPublic().getEncoded()));
        assertEquals(3, c.getVersion());
        c.checkValidity();
        c.verify(p.getPublic());
        new JobTls.JobTrust(JOB).check(new X509Certificate[] {c});
    }

    @Test
    void anotherJobsCertificateOrACopiedNameOrAChainIsRefused() throws Exception {
        KeyPair p = pair(), thief = pair();
        JobTls.JobTrust trust = new JobTls.JobTrust(JOB);
        X509Certificate other = JobTls.selfSigned(p, JobTls.subject(HandshakeTest.secret("other job"), p.getPublic().getEncoded()));
        assertTrue(assertThrows(CertificateException.class, () -> trust.check(new X509Certificate[] {other}))
                .getMessage().contains("not made with this job's key"));
        // a legitimate rank's name on another key: the tag is of the public key, so it does not fit
        X509Certificate copied = JobTls.selfSigned(thief, JobTls.subject(JOB, p.getPublic().getEncoded()));
        assertThrows(CertificateException.class, () -> trust.check(new X509Certificate[] {copied}));
        X509Certificate good = JobTls.selfSigned(p, JobTls.subject(JOB, p.getPublic().getEncoded()));
        assertThrows(CertificateException.class, () -> trust.check(new X509Certificate[] {good, good}));
        assertThrows(CertificateException.class, () -> trust.check(new X509Certificate[0]));
    }
}
