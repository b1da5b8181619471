// A deflate encoder (RFC 1951) for PNG's filtered rows, made for what libdeflate and igzip handle badly or slowly
// there: long runs of one byte (the transparent pixels of an APNG frame's unchanged area, flat colour after the
// Sub filter), which it codes as distance-1 matches found by comparing 8 bytes at a time, never inserting their
// positions into the hash chains; everything else by lazy matching on hash chains of 4-byte prefixes, as zlib's
// and libdeflate's middle levels do. It deflates one band at a time, primed with the 32 KiB before it and ending on
// a sync flush (or the final block), so bands deflated on several threads join into one stream.
#include "bt_deflate.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    BT_HASH_BITS = 15,
    BT_HASH_SIZE = 1 << BT_HASH_BITS,
    BT_WINDOW_SIZE = 32768,
    BT_MIN_MATCH = 4,        // shorter matches in filtered pixels rarely beat their literals
    BT_MAX_MATCH = 258,
    BT_INSERT_LIMIT = 64,    // a longer match inserts only its last positions into the chains
    BT_BLOCK_ITEMS = 32768,  // literals and matches per block: the Huffman codes adapt at this interval
    BT_LITLEN_CODES = 286,
    BT_DIST_CODES = 30,
    BT_CODELEN_CODES = 19,
};

typedef struct {
    uint16_t value;     // a literal byte, or a match's length (3...258) when distance is not 0
    uint16_t distance;  // 1...32768 (32768 stored as 0x8000)
} bt_item;

// How hard each level looks for matches, as zlib's configuration table does: candidates tried per position (a
// quarter of them once a match of `good` bytes is in hand), a match long enough to stop looking, and one long
// enough to skip the lazy look at the next position.
typedef struct {
    int chain_depth;
    int nice_length;
    int lazy_length;
    int good_length;
} bt_effort;

static const bt_effort bt_efforts[] = {
    {4, 16, 8, 4},      // level 2
    {8, 32, 16, 4},     // 3
    {12, 48, 16, 8},    // 4
    {16, 64, 32, 8},    // 5
    {32, 128, 64, 16},  // 6
};

struct bt_deflater {
    bt_effort effort;
    int32_t head[BT_HASH_SIZE];    // the latest position with each hash, or -1
    int32_t chain[BT_WINDOW_SIZE]; // the position before it with the same hash, by position mod the window
    bt_item items[BT_BLOCK_ITEMS];
    int item_count;
    uint32_t litlen_frequency[BT_LITLEN_CODES];
    uint32_t dist_frequency[BT_DIST_CODES];
};

// --- Code tables -------------------------------------------------------------------------------------------------

static const uint16_t bt_length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                            31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t bt_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t bt_dist_base[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,
                                          129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
                                          12289, 16385, 24577};
static const uint8_t bt_dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                          6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t bt_codelen_order[BT_CODELEN_CODES] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                           11, 4,  12, 3, 13, 2, 14, 1, 15};

static int bt_length_code(int length) {  // 0...28 for lengths 3...258
    int code = 0;
    while (code < 28 && bt_length_base[code + 1] <= length) code++;
    return code;
}

static int bt_dist_code(int distance) {  // 0...29 for distances 1...32768
    if (distance <= 4) return distance - 1;
    int bits = 31 - __builtin_clz((unsigned)(distance - 1));  // the top bit of distance - 1
    return 2 * bits + (((distance - 1) >> (bits - 1)) & 1);
}

// Lengths 3...258 → code 0...28, filled from the table above once, by whichever thread deflates first.
static uint8_t bt_length_codes[BT_MAX_MATCH + 1];
static pthread_once_t bt_tables_once = PTHREAD_ONCE_INIT;

static void bt_fill_tables(void) {
    for (int length = 3; length <= BT_MAX_MATCH; length++) bt_length_codes[length] = (uint8_t)bt_length_code(length);
}

static void bt_prepare_tables(void) { pthread_once(&bt_tables_once, bt_fill_tables); }

// --- Huffman codes -----------------------------------------------------------------------------------------------

// Code lengths (at most `limit` bits) minimising the coded size of symbols with these frequencies; symbols of
// frequency 0 get length 0. At least two symbols get a code, as every decoder accepts.
static void bt_code_lengths(const uint32_t *frequency, int count, int limit, uint8_t *lengths) {
    uint16_t symbols[BT_LITLEN_CODES];
    uint32_t weights[BT_LITLEN_CODES];
    int used = 0;
    memset(lengths, 0, (size_t)count);
    for (int s = 0; s < count; s++) {
        if (frequency[s] > 0) symbols[used++] = (uint16_t)s;
    }
    for (int s = 0; used < 2; s++) {  // pad with the first unused symbols
        if (frequency[s] == 0 && (used == 0 || symbols[0] != s)) symbols[used++] = (uint16_t)s;
    }
    // Sort by frequency, ascending (insertion sort: at most 286 symbols, mostly few).
    for (int i = 1; i < used; i++) {
        uint16_t symbol = symbols[i];
        uint32_t weight = frequency[symbol];
        int j = i;
        while (j > 0 && frequency[symbols[j - 1]] > weight) {
            symbols[j] = symbols[j - 1];
            j--;
        }
        symbols[j] = symbol;
    }
    for (int i = 0; i < used; i++) weights[i] = frequency[symbols[i]] > 0 ? frequency[symbols[i]] : 1;
    // Moffat and Katajainen's in-place minimum-redundancy lengths ("In-place calculation of minimum-redundancy
    // codes", 1995): parent pointers left to right, then internal depths, then leaf depths right to left.
    uint32_t *a = weights;
    int n = used;
    a[0] += a[1];
    int root = 0, leaf = 2;
    for (int next = 1; next < n - 1; next++) {
        if (leaf >= n || a[root] < a[leaf]) {
            a[next] = a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] = a[leaf++];
        }
        if (leaf >= n || (root < next && a[root] < a[leaf])) {
            a[next] += a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] += a[leaf++];
        }
    }
    a[n - 2] = 0;
    for (int next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    int available = 1, taken = 0, depth = 0, next = n - 1;
    root = n - 2;
    while (available > 0) {
        while (root >= 0 && a[root] == (uint32_t)depth) {
            taken++;
            root--;
        }
        while (available > taken) {
            a[next--] = (uint32_t)depth;
            available--;
        }
        available = 2 * taken;
        depth++;
        taken = 0;
    }
    // Lengths over the limit: count codes per length, fold the long ones into the limit, then restore the Kraft
    // sum by lengthening the longest codes below it (the least frequent symbols keep the longest codes).
    int per_length[64] = {0};
    for (int i = 0; i < n; i++) per_length[a[i] < 63 ? a[i] : 63]++;
    for (int length = limit + 1; length < 64; length++) {
        per_length[limit] += per_length[length];
        per_length[length] = 0;
    }
    uint32_t total = 0;
    for (int length = 1; length <= limit; length++) total += (uint32_t)per_length[length] << (limit - length);
    while (total > (1u << limit)) {
        per_length[limit]--;
        for (int length = limit - 1; length > 0; length--) {
            if (per_length[length] > 0) {
                per_length[length]--;
                per_length[length + 1] += 2;
                break;
            }
        }
        total--;
    }
    int i = 0;
    for (int length = limit; length >= 1; length--) {
        for (int k = 0; k < per_length[length]; k++) lengths[symbols[i++]] = (uint8_t)length;
    }
}

// Canonical codes for the lengths, bit-reversed for deflate's least-significant-bit-first order.
static void bt_canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    int per_length[16] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    uint16_t next[16];
    uint16_t code = 0;
    for (int length = 1; length < 16; length++) {
        code = (uint16_t)((code + per_length[length - 1]) << 1);
        next[length] = code;
    }
    for (int s = 0; s < count; s++) {
        int length = lengths[s];
        if (length == 0) continue;
        uint16_t value = next[length]++;
        uint16_t reversed = 0;
        for (int b = 0; b < length; b++) reversed |= (uint16_t)(((value >> b) & 1) << (length - 1 - b));
        codes[s] = reversed;
    }
}

// --- Bits --------------------------------------------------------------------------------------------------------

typedef struct {
    uint64_t bits;
    int count;
    uint8_t *out;
    uint8_t *end;
    int overflowed;
} bt_bit_writer;

static inline void bt_put(bt_bit_writer *w, uint32_t value, int count) {
    w->bits |= (uint64_t)value << w->count;
    w->count += count;
    if (w->count >= 32) {
        if (w->end - w->out < 4) {
            w->overflowed = 1;  // the caller discards the output
        } else {
            uint32_t word = (uint32_t)w->bits;
            w->out[0] = (uint8_t)word;
            w->out[1] = (uint8_t)(word >> 8);
            w->out[2] = (uint8_t)(word >> 16);
            w->out[3] = (uint8_t)(word >> 24);
            w->out += 4;
        }
        w->bits >>= 32;
        w->count -= 32;
    }
}

// Pads to a byte boundary and writes out every whole byte.
static void bt_align(bt_bit_writer *w) {
    while (w->count > 0) {
        if (w->out >= w->end) {
            w->overflowed = 1;
            break;
        }
        *w->out++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
    w->count = 0;
}

static void bt_put_bytes(bt_bit_writer *w, const uint8_t *bytes, size_t count) {
    if ((size_t)(w->end - w->out) < count) {
        w->overflowed = 1;
        return;
    }
    memcpy(w->out, bytes, count);
    w->out += count;
}

// --- Blocks ------------------------------------------------------------------------------------------------------

// Sized for the fixed code's 288 and 32 symbols (the last two of each are never used, but shape the codes).
typedef struct {
    uint8_t litlen_lengths[288];
    uint8_t dist_lengths[32];
    uint16_t litlen_codes[288];
    uint16_t dist_codes[32];
} bt_codes;

// The code-length symbols (0...18, each with its extra bits in the high byte) describing `lengths`.
static int bt_run_length_encode(const uint8_t *lengths, int count, uint16_t *symbols) {
    int produced = 0;
    for (int i = 0; i < count;) {
        int value = lengths[i];
        int run = 1;
        while (i + run < count && lengths[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) {
                int take = run < 138 ? run : 138;
                symbols[produced++] = (uint16_t)(18 | ((take - 11) << 8));
                run -= take;
            }
            if (run >= 3) {
                symbols[produced++] = (uint16_t)(17 | ((run - 3) << 8));
                run = 0;
            }
        } else {
            symbols[produced++] = (uint16_t)value;
            run--;
            while (run >= 3) {
                int take = run < 6 ? run : 6;
                symbols[produced++] = (uint16_t)(16 | ((take - 3) << 8));
                run -= take;
            }
        }
        while (run-- > 0) symbols[produced++] = (uint16_t)value;
    }
    return produced;
}

static const uint8_t bt_codelen_extra[3] = {2, 3, 7};

// The bits the block's items take with these lengths (extra bits included), without its header.
static uint64_t bt_items_cost(const bt_deflater *d, const uint8_t *litlen_lengths, const uint8_t *dist_lengths) {
    uint64_t bits = 0;
    for (int s = 0; s < BT_LITLEN_CODES; s++) {
        uint32_t extra = s >= 257 ? bt_length_extra[s - 257] : 0;
        bits += (uint64_t)d->litlen_frequency[s] * (litlen_lengths[s] + extra);
    }
    for (int s = 0; s < BT_DIST_CODES; s++) {
        bits += (uint64_t)d->dist_frequency[s] * (dist_lengths[s] + bt_dist_extra[s]);
    }
    return bits;
}

static void bt_put_items(bt_bit_writer *w, const bt_deflater *d, const bt_codes *c) {
    for (int i = 0; i < d->item_count; i++) {
        bt_item item = d->items[i];
        if (item.distance == 0) {
            bt_put(w, c->litlen_codes[item.value], c->litlen_lengths[item.value]);
            continue;
        }
        int length_code = bt_length_codes[item.value];
        int symbol = 257 + length_code;
        bt_put(w, c->litlen_codes[symbol], c->litlen_lengths[symbol]);
        bt_put(w, (uint32_t)(item.value - bt_length_base[length_code]), bt_length_extra[length_code]);
        int distance = item.distance;
        int dist_code = bt_dist_code(distance);
        bt_put(w, c->dist_codes[dist_code], c->dist_lengths[dist_code]);
        bt_put(w, (uint32_t)(distance - bt_dist_base[dist_code]), bt_dist_extra[dist_code]);
    }
    bt_put(w, c->litlen_codes[256], c->litlen_lengths[256]);
}

// Writes the pending items as one block (dynamic Huffman, fixed Huffman or stored, whichever is smallest);
// `raw` and `raw_length` are the bytes they stand for, for a stored block.
static void bt_flush_block(bt_deflater *d, bt_bit_writer *w, const uint8_t *raw, size_t raw_length, int final) {
    d->litlen_frequency[256]++;
    bt_codes dynamic;
    bt_code_lengths(d->litlen_frequency, BT_LITLEN_CODES, 15, dynamic.litlen_lengths);
    bt_code_lengths(d->dist_frequency, BT_DIST_CODES, 15, dynamic.dist_lengths);
    int litlen_count = BT_LITLEN_CODES;
    while (litlen_count > 257 && dynamic.litlen_lengths[litlen_count - 1] == 0) litlen_count--;
    int dist_count = BT_DIST_CODES;
    while (dist_count > 1 && dynamic.dist_lengths[dist_count - 1] == 0) dist_count--;
    uint8_t all_lengths[BT_LITLEN_CODES + BT_DIST_CODES];
    memcpy(all_lengths, dynamic.litlen_lengths, (size_t)litlen_count);
    memcpy(all_lengths + litlen_count, dynamic.dist_lengths, (size_t)dist_count);
    uint16_t symbols[BT_LITLEN_CODES + BT_DIST_CODES];
    int symbol_count = bt_run_length_encode(all_lengths, litlen_count + dist_count, symbols);
    uint32_t codelen_frequency[BT_CODELEN_CODES] = {0};
    for (int i = 0; i < symbol_count; i++) codelen_frequency[symbols[i] & 0xFF]++;
    uint8_t codelen_lengths[BT_CODELEN_CODES];
    uint16_t codelen_codes[BT_CODELEN_CODES];
    bt_code_lengths(codelen_frequency, BT_CODELEN_CODES, 7, codelen_lengths);
    bt_canonical_codes(codelen_lengths, BT_CODELEN_CODES, codelen_codes);
    int codelen_count = BT_CODELEN_CODES;
    while (codelen_count > 4 && codelen_lengths[bt_codelen_order[codelen_count - 1]] == 0) codelen_count--;

    uint64_t dynamic_bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)codelen_count;
    for (int i = 0; i < symbol_count; i++) {
        int symbol = symbols[i] & 0xFF;
        dynamic_bits += codelen_lengths[symbol] + (symbol >= 16 ? bt_codelen_extra[symbol - 16] : 0);
    }
    dynamic_bits += bt_items_cost(d, dynamic.litlen_lengths, dynamic.dist_lengths);

    bt_codes fixed;
    for (int s = 0; s < 288; s++) fixed.litlen_lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    for (int s = 0; s < 32; s++) fixed.dist_lengths[s] = 5;
    uint64_t fixed_bits = 3 + bt_items_cost(d, fixed.litlen_lengths, fixed.dist_lengths);
    // Stored: a 3-bit header, padding to a byte, LEN and NLEN, per 65,535 bytes.
    uint64_t stored_bits = ((raw_length + 65534) / 65535 + (raw_length == 0)) * (3 + 7 + 32) + 8 * (uint64_t)raw_length;

    if (stored_bits < dynamic_bits && stored_bits < fixed_bits) {
        size_t offset = 0;
        do {
            size_t chunk = raw_length - offset < 65535 ? raw_length - offset : 65535;
            int last_chunk = offset + chunk == raw_length;
            bt_put(w, (uint32_t)(final && last_chunk), 3);
            bt_align(w);
            uint8_t header[4] = {(uint8_t)chunk, (uint8_t)(chunk >> 8), (uint8_t)~chunk, (uint8_t)(~chunk >> 8)};
            bt_put_bytes(w, header, 4);
            bt_put_bytes(w, raw + offset, chunk);
            offset += chunk;
        } while (offset < raw_length);
    } else if (fixed_bits <= dynamic_bits) {
        bt_canonical_codes(fixed.litlen_lengths, 288, fixed.litlen_codes);
        bt_canonical_codes(fixed.dist_lengths, 32, fixed.dist_codes);
        bt_put(w, (uint32_t)final | (1u << 1), 3);
        bt_put_items(w, d, &fixed);
    } else {
        bt_canonical_codes(dynamic.litlen_lengths, BT_LITLEN_CODES, dynamic.litlen_codes);
        bt_canonical_codes(dynamic.dist_lengths, BT_DIST_CODES, dynamic.dist_codes);
        bt_put(w, (uint32_t)final | (2u << 1), 3);
        bt_put(w, (uint32_t)(litlen_count - 257), 5);
        bt_put(w, (uint32_t)(dist_count - 1), 5);
        bt_put(w, (uint32_t)(codelen_count - 4), 4);
        for (int i = 0; i < codelen_count; i++) bt_put(w, codelen_lengths[bt_codelen_order[i]], 3);
        for (int i = 0; i < symbol_count; i++) {
            int symbol = symbols[i] & 0xFF;
            bt_put(w, codelen_codes[symbol], codelen_lengths[symbol]);
            if (symbol >= 16) bt_put(w, (uint32_t)(symbols[i] >> 8), bt_codelen_extra[symbol - 16]);
        }
        bt_put_items(w, d, &dynamic);
    }
    d->item_count = 0;
    memset(d->litlen_frequency, 0, sizeof(d->litlen_frequency));
    memset(d->dist_frequency, 0, sizeof(d->dist_frequency));
}

// --- Matching ----------------------------------------------------------------------------------------------------

static inline uint32_t bt_load32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return value;
}

static inline uint64_t bt_load64(const uint8_t *p) {
    uint64_t value;
    memcpy(&value, p, 8);
    return value;
}

static inline uint32_t bt_hash(const uint8_t *p) { return (bt_load32(p) * 0x9E3779B1u) >> (32 - BT_HASH_BITS); }

// How many bytes at `a` and `b` agree, up to `limit`.
static inline int bt_match_length(const uint8_t *a, const uint8_t *b, int limit) {
    int length = 0;
    while (length + 8 <= limit) {
        uint64_t difference = bt_load64(a + length) ^ bt_load64(b + length);
        if (difference != 0) return length + (__builtin_ctzll(difference) >> 3);
        length += 8;
    }
    while (length < limit && a[length] == b[length]) length++;
    return length;
}

static inline void bt_add_literal(bt_deflater *d, uint8_t byte) {
    d->items[d->item_count++] = (bt_item){byte, 0};
    d->litlen_frequency[byte]++;
}

static inline void bt_add_match(bt_deflater *d, int length, int distance) {
    d->items[d->item_count++] = (bt_item){(uint16_t)length, (uint16_t)distance};
    d->litlen_frequency[257 + bt_length_codes[length]]++;
    d->dist_frequency[bt_dist_code(distance)]++;
}

// Writes the pending items as a block once there is no room for two more (a match and the literal before it),
// the next block starting at `position`.
static inline void bt_end_block_if_full(bt_deflater *d, bt_bit_writer *w, const uint8_t *base, int32_t *block_start,
                                        int32_t position) {
    if (d->item_count <= BT_BLOCK_ITEMS - 2) return;
    bt_flush_block(d, w, base + *block_start, (size_t)(position - *block_start), 0);
    *block_start = position;
}

size_t bt_deflate(bt_deflater *d, const uint8_t *data, size_t size, size_t dictionary, int last, uint8_t *out,
                  size_t capacity) {
    bt_prepare_tables();
    if (dictionary > BT_WINDOW_SIZE) dictionary = BT_WINDOW_SIZE;
    if (size > 0x7FFFFFFF - dictionary) return 0;
    const uint8_t *base = data - dictionary;
    const int32_t end = (int32_t)(dictionary + size);
    const int32_t hashable = end - 3;  // positions with 4 bytes to hash
    memset(d->head, 0xFF, sizeof(d->head));
    d->item_count = 0;
    memset(d->litlen_frequency, 0, sizeof(d->litlen_frequency));
    memset(d->dist_frequency, 0, sizeof(d->dist_frequency));
    bt_bit_writer w = {.out = out, .end = out + capacity};

    int32_t inserted = 0;  // every position below this is in the chains (or deliberately left out)
#define BT_INSERT_UNTIL(limit)                                       \
    for (int32_t limit_ = (limit) < hashable ? (limit) : hashable; inserted < limit_; inserted++) { \
        uint32_t h_ = bt_hash(base + inserted);                      \
        d->chain[inserted & (BT_WINDOW_SIZE - 1)] = d->head[h_];     \
        d->head[h_] = inserted;                                      \
    }

    int32_t position = (int32_t)dictionary;
    int32_t block_start = position;
    while (position < end) {
        bt_end_block_if_full(d, &w, base, &block_start, position);
        int32_t remaining = end - position;
        // A run of the byte before: distance-1 matches, its positions left out of the chains but its last three.
        if (position > 0 && remaining >= 8 &&
            bt_load64(base + position) == 0x0101010101010101ull * base[position - 1]) {
            int run = 8 + bt_match_length(base + position + 8, base + position + 7, remaining - 8);
            int32_t run_end = position + run;
            while (run > 0) {  // every match at least 3 long: the run is 8 or more, and no piece leaves 1 or 2
                int take = run > BT_MAX_MATCH ? BT_MAX_MATCH : run;
                if (run - take > 0 && run - take < 3) take = run - 3;
                bt_add_match(d, take, 1);
                position += take;
                run -= take;
                bt_end_block_if_full(d, &w, base, &block_start, position);
            }
            if (inserted < run_end - 3) inserted = run_end - 3;
            continue;
        }
        // The longest match at this position, then (lazily) at the next: a longer one there wins.
        int best_length = 0, best_distance = 0;
        for (int step = 0; step < 2; step++) {
            int32_t here = position + step;
            if (here >= hashable) break;
            BT_INSERT_UNTIL(here);
            int limit = end - here < BT_MAX_MATCH ? end - here : BT_MAX_MATCH;
            int length = step == 0 ? BT_MIN_MATCH - 1 : best_length;
            int distance = 0;
            int32_t candidate = d->head[bt_hash(base + here)];
            int depth = step == 0 || best_length < d->effort.good_length ? d->effort.chain_depth
                                                                          : d->effort.chain_depth / 4;
            for (; candidate >= 0 && here - candidate <= BT_WINDOW_SIZE && depth > 0;
                 depth--) {
                if (base[candidate + length] == base[here + length] &&
                    bt_load32(base + candidate) == bt_load32(base + here)) {
                    int found = bt_match_length(base + candidate, base + here, limit);
                    if (found > length) {
                        length = found;
                        distance = here - candidate;
                        if (found >= d->effort.nice_length || found == limit) break;
                    }
                }
                int32_t older = d->chain[candidate & (BT_WINDOW_SIZE - 1)];
                if (older >= candidate) break;
                candidate = older;
            }
            if (step == 0) {
                if (distance == 0) break;
                best_length = length;
                best_distance = distance;
                if (length >= d->effort.lazy_length) break;
            } else if (distance != 0) {  // longer at the next position: this one goes as a literal
                bt_add_literal(d, base[position]);
                position++;
                best_length = length;
                best_distance = distance;
            }
        }
        if (best_distance == 0) {
            bt_add_literal(d, base[position]);
            position++;
            continue;
        }
        bt_add_match(d, best_length, best_distance);
        position += best_length;
        if (best_length > BT_INSERT_LIMIT && inserted < position - 3) inserted = position - 3;
    }
#undef BT_INSERT_UNTIL
    bt_flush_block(d, &w, base + block_start, (size_t)(position - block_start), last);
    if (!last) {  // a sync flush: an empty stored block ends the band on a byte boundary
        bt_put(&w, 0, 3);
        bt_align(&w);
        static const uint8_t empty[4] = {0, 0, 0xFF, 0xFF};
        bt_put_bytes(&w, empty, 4);
    } else {
        bt_align(&w);
    }
    return w.overflowed ? 0 : (size_t)(w.out - out);
}

bt_deflater *bt_deflater_new(int level) {
    bt_deflater *deflater = malloc(sizeof(bt_deflater));
    if (deflater == NULL) return NULL;
    int index = level < BT_DEFLATE_MIN_LEVEL ? 0 : level > BT_DEFLATE_MAX_LEVEL ? BT_DEFLATE_MAX_LEVEL - 2 : level - 2;
    deflater->effort = bt_efforts[index];
    return deflater;
}

void bt_deflater_free(bt_deflater *deflater) { free(deflater); }

size_t bt_deflate_bound(size_t size) { return size + size / 2048 + 64; }
