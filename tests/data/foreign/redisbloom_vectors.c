/* Test vectors for bloomviz.formats.redisbloom, from RedisBloom's own hash code.
 *
 * Build against a RedisBloom checkout (SRC), linking its deps/murmur2/MurmurHash2.c and deps/bloom/bloom.c
 * unchanged (the two RedisModule allocator hooks bloom.c declares are given plain calloc/free here):
 *
 *   cc -O1 -I$SRC/deps/murmur2 -I$SRC/deps tests/data/foreign/redisbloom_vectors.c \
 *      $SRC/deps/murmur2/MurmurHash2.c $SRC/deps/bloom/bloom.c -lm -o /tmp/rbv && /tmp/rbv
 *
 * Prints one line per input: hex of the input, MurmurHash2(x, 0x9747b28c), MurmurHash64A_Bloom(x,
 * 0xc6a4a7935bd1e995), bloom_calc_hash64's (a, b), and the positions bloom.c's bloom_add sets for that item in
 * a 1000-entry 1% filter made by bloom_init with NOROUND|FORCE64 (the BF.RESERVE options) and in one made
 * with no options (a power-of-two, 32-bit-hashed link). tests/test_format_redisbloom.py holds the output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bloom.h"
#include "murmurhash2.h"

void (*RedisModule_Free)(void *ptr) = free;
void *(*RedisModule_Calloc)(size_t nmemb, size_t size) = calloc;
void *(*RedisModule_TryCalloc)(size_t nmemb, size_t size) = calloc;
bloom_hashval bloom_calc_hash64(const void *buffer, int len);

static void set_positions(struct bloom *b, const char *s, int len, int force64) {
    memset(b->bf, 0, b->bytes);
    if (force64) {
        b->force64 = 1;
        bloom_add_h(b, bloom_calc_hash64(s, len));
    } else {
        bloom_add(b, s, len);
    }
    printf(" |");
    for (uint64_t x = 0; x < b->bits; x++)
        if (b->bf[x >> 3] & (1 << (x & 7)))
            printf(" %llu", (unsigned long long)x);
}

int main(void) {
    const char *inputs[] = {"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh",
                            "abcdefghi", "hello, world", "item-0", "item-12345", "0123456789abcdefX",
                            "\xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac", "\xff\x00\x80\x7f"};
    int lens[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 6, 10, 17, 12, 4};
    struct bloom r64, r32;
    bloom_init(&r64, 1000, 0.01, BLOOM_OPT_NOROUND | BLOOM_OPT_FORCE64);
    bloom_init(&r32, 1000, 0.01, 0);
    printf("# noround-force64: bits=%llu hashes=%u n2=%u; pow2-32: bits=%llu hashes=%u n2=%u\n",
           (unsigned long long)r64.bits, r64.hashes, r64.n2, (unsigned long long)r32.bits, r32.hashes, r32.n2);
    for (int i = 0; i < (int)(sizeof lens / sizeof lens[0]); i++) {
        const char *s = inputs[i];
        int n = lens[i];
        for (int j = 0; j < n; j++)
            printf("%02x", (unsigned char)s[j]);
        bloom_hashval h = bloom_calc_hash64(s, n);
        printf(" %08x %016llx %016llx %016llx", MurmurHash2(s, n, 0x9747b28c),
               (unsigned long long)MurmurHash64A_Bloom(s, n, 0xc6a4a7935bd1e995ULL), (unsigned long long)h.a,
               (unsigned long long)h.b);
        set_positions(&r64, s, n, 1);
        set_positions(&r32, s, n, 0);
        printf("\n");
    }
    return 0;
}
