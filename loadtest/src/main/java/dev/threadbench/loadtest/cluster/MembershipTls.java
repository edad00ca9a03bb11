package dev.threadbench.loadtest.cluster;

import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the membership layer, as the event bus has it: the cluster key's certificate presented, only it trusted,
 * a client certificate required. Built in memory: the key never goes to a keystore file.
 */
final class MembershipTls {

    private static final char[] IN_MEMORY = new char[0];

    private MembershipTls() {}

    static SSLContext context(ClusterKey key) throws GeneralSecurityException, java.io.IOException {
        Certificate certificate = CertificateFactory.getInstance("X.509")
                .generateCertificate(
                        new ByteArrayInputStream(key.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        String base64 = key.privateKeyPem().replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey privateKey = KeyFactory.getInstance("EC")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));

        KeyStore own = KeyStore.getInstance("PKCS12");
        own.load(null, null);
        own.setKeyEntry("cluster", privateKey, IN_MEMORY, new Certificate[] {certificate});
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(own, IN_MEMORY);

        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("cluster", certificate);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);

        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), new SecureRandom());
        return context;
    }

    /** A peer that presents no certificate, or another, is refused in the handshake, before any JGroups byte. */
    static void requireClientCertificate(ServerSocket socket) {
        SSLParameters parameters = ((SSLServerSocket) socket).getSSLParameters();
        parameters.setNeedClientAuth(true);
        parameters.setProtocols(new String[] {"TLSv1.3"});
        ((SSLServerSocket) socket).setSSLParameters(parameters);
    }
}
