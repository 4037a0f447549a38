package dev.kafkafetch.security;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecretMaskerTest {

    @Test
    void masksConfiguredSecretsWhereverTheyAppear() {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"s3cr3t!\";";
        SecretMasker masker = new SecretMasker(List.of(jaas, "s3cr3t!", "keystorePass"));
        String masked = masker.mask("login failed with " + jaas + " and keystorePass; raw s3cr3t! again");
        assertThat(masked).doesNotContain("s3cr3t!").doesNotContain("keystorePass").contains("login failed with");
    }

    @Test
    void masksSecretLikeAssignmentsThatAreNotConfigured() {
        SecretMasker masker = new SecretMasker(List.of());
        assertThat(masker.mask("connect failed: password=\"hunter2\" user=bob"))
                .isEqualTo("connect failed: password=" + SecretMasker.MASK + " user=bob");
        assertThat(masker.mask("connect failed: password=\"hunter2\" user=bob")).doesNotContain("hunter2")
                .contains("user=bob");
        assertThat(masker.mask("sasl.jaas.config=org.Plain required password=hunter2;")).doesNotContain("hunter2");
        assertThat(masker.mask("ssl.truststore.password: hunter2, next")).doesNotContain("hunter2").contains("next");
        assertThat(masker.mask("token=abc.def.ghi")).doesNotContain("abc.def.ghi");
    }

    @Test
    void ignoresBlankAndTinySecretsAndNullText() {
        SecretMasker masker = new SecretMasker(Arrays.asList(null, "", " ", "ab"));
        assertThat(masker.mask("about a bus")).isEqualTo("about a bus");
        assertThat(masker.mask(null)).isNull();
    }
}
