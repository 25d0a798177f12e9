// Decides which data key a database file was written with by authenticating its
// first page. Used at open (to refuse a wrong key before SQLite touches the WAL)
// and to finish an interrupted key rotation.
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "cipher_internal.h"

int ohk_cipher_probe_database(const char *path, uint64_t key_id) {
    uint8_t sealed[PAGE_SIZE_BYTES], plain[PAGE_SIZE_BYTES];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? -1 : -2;
    ssize_t got = 0;
    while (got < PAGE_SIZE_BYTES) {
        ssize_t n = pread(fd, sealed + got, (size_t)(PAGE_SIZE_BYTES - got), got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += n;
    }
    close(fd);
    if (got < PAGE_SIZE_BYTES) return -1;

    derived_keys keys;
    if (!key_registry_retain(key_id, &keys)) return -2;
    page_codec codec = {0};
    int ok = page_codec_init(&codec, keys.page_key)
        && page_codec_open(&codec, FILE_KIND_DATABASE, 1, sealed, plain, PAGE_SIZE_BYTES);
    page_codec_free(&codec);
    OPENSSL_cleanse(&keys, sizeof keys);
    OPENSSL_cleanse(plain, sizeof plain);
    key_registry_release(key_id);
    return ok ? 1 : 0;
}
