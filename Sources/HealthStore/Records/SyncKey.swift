import GRDB

/// The compact key the sync-identifier index is built on (`objects.sync_key`, v36): 64 bits of a
/// fixed hash of the identifier's UTF-8 bytes.
///
/// Why not the identifier itself (as v2's index was): an import names every sample with a
/// 52-byte digest (`apple-health-import:` + 32 hex digits), in no order, so each import batch
/// landed its identifiers on most leaf pages of an index of long texts, and every commit wrote
/// those pages to the WAL and the checkpoint wrote them again (issue 16: ≈ 290 MB written for a
/// 69 MB store). Entries of 8-byte integers make that index about a quarter of the size (20
/// bytes an entry against 70–80), so a batch dirties about a quarter of the pages.
///
/// The key is a filter, never an identity: the lookup also compares the identifier itself
/// (`SyncedObject.lookup`), so two identifiers with one key stay two objects. That is why the
/// index is not UNIQUE; one object per (source, identifier) is kept by the single insert path,
/// which looks each identifier up in the writing transaction before storing it
/// (`SampleRepository.write`, `SampleInserter`).
///
/// Stored on disk: the function must never change (another would need a migration that rewrites
/// every key); `SyncKeyTests` pins its values.
enum SyncKey {
    /// FNV-1a over the bytes, then MurmurHash3's 64-bit finalizer so that identifiers differing
    /// in their last bytes only (an import's digests share their first 20) spread over the key
    /// space. Collisions cost an extra row read, never a wrong answer.
    static func of(_ identifier: String) -> Int64 {
        var text = identifier
        // The bytes in place (contiguous first if the string is bridged), no iterator per byte.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        text.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int64(bitPattern: hash)
    }

    /// The key of an import's *dated* identity (`SyncLookup`): the start's 67-second period
    /// (2^26 µs) in the high bits, the low 32 bits of `of(identifier)` below. A batch of samples in
    /// date order then takes neighbouring keys, so its index entries go to a few leaves at the edge
    /// of what is stored instead of one leaf in every few of the whole index (imported identifiers
    /// are digests: random). Still a filter, not an identity — the lookup compares the identifier —
    /// and fixed like `of`: stored on disk.
    static func dated(_ identifier: String, startMicroseconds: Int64) -> Int64 {
        (startMicroseconds >> 26) &<< 32 | (of(identifier) & 0xFFFF_FFFF)
    }

    /// `openhealth_sync_key(text)`: `of` in SQL, for the migration that keys the identifiers stored
    /// before v36 (NULL for NULL). Registered by that migration only: no statement of the running
    /// store computes a key in SQL.
    static let function = DatabaseFunction("openhealth_sync_key", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(of)
    }
}
