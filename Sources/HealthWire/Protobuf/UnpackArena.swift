import COpenHealthProto
import Glibc

/// The memory of one `protobuf_c_message_unpack`, handed out from a few growing blocks and
/// released all at once when the decoded message is no longer needed.
///
/// Why: with its default allocator protobuf-c makes one `malloc` per message, string and
/// repeated field it unpacks, and one `free` for each again — about a dozen of each per sample
/// (its quantity, source revision, device and their strings), which for a 10,000-sample answer
/// cost as much as the Swift work that turns the samples into objects (issue 17). Nothing it
/// allocates outlives `ProtobufCodec.withDecoded`'s closure, so individual frees are not needed.
///
/// Bounded like the decoding it serves: the input is at most one frame, and protobuf-c may take
/// at most `WireLimits.maxUnpackedBytes(forInputBytes:)` for it — past that every allocation
/// fails, so protobuf-c gives up and `exceededBound` says why. The one place every unpack
/// allocates, so the one place its memory is bounded — and charged: what it hands out is claimed
/// from the calling request's account (`UnpackMemory.account`) as it grows, and an unpack the
/// account cannot cover fails the same way (`refusedByAccount`).
final class UnpackArena {
    private var blocks: [UnsafeMutableRawPointer] = []
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0
    private var nextBlockSize: Int
    /// Bytes handed out to protobuf-c so far (rounded as handed out).
    private(set) var usedBytes = 0
    /// The most that may be handed out for this input.
    let bound: Int
    /// Whether an allocation was refused for passing `bound`.
    private(set) var exceededBound = false
    /// Who pays for what is handed out, or nil (nobody's share: the manager, the SDK, tests).
    let account: (any UnpackMemoryAccount)?
    /// Bytes claimed from `account` so far: at least `usedBytes`, claimed ahead in steps of
    /// `claimStep` so that a batch of 10,000 samples takes a handful of claims, not 100,000.
    private(set) var claimedBytes = 0
    /// Whether an allocation was refused because `account` could not cover it.
    private(set) var refusedByAccount = false
    static let claimStep = 256 << 10

    /// Blocks start at four times the input (unpacked structs and NUL-terminated strings are
    /// larger than their encoding), between 4 KiB and 4 MiB.
    init(inputBytes: Int, account: (any UnpackMemoryAccount)? = UnpackMemory.account) {
        bound = WireLimits.maxUnpackedBytes(forInputBytes: inputBytes)
        nextBlockSize = min(max(4_096, inputBytes.multipliedReportingOverflow(by: 4).partialValue), 4 << 20)
        self.account = account
    }

    deinit {
        for block in blocks { free(block) }
    }

    /// 16-byte aligned, as `malloc`'s; nil only when `malloc` fails (protobuf-c then fails the
    /// unpack, which the caller reports as malformed).
    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let (padded, overflow) = max(size, 1).addingReportingOverflow(15)
        guard !overflow else { return nil }
        let rounded = padded & ~15
        guard rounded <= bound - usedBytes else {
            exceededBound = true
            return nil
        }
        // Claimed before it is handed out: bytes handed out are what the unpacked form really
        // takes (a block's untouched tail costs no resident memory), and at most `bound`.
        if let account, rounded > claimedBytes - usedBytes {
            let needed = usedBytes + rounded - claimedBytes
            let step = max(needed, min(Self.claimStep, bound - claimedBytes))
            guard account.claimUnpacked(step) else {
                refusedByAccount = true
                return nil
            }
            claimedBytes += step
        }
        if rounded > remaining {
            // No block larger than what may still be handed out.
            let blockSize = max(rounded, min(nextBlockSize, bound - usedBytes))
            guard let block = malloc(blockSize) else { return nil }
            blocks.append(block)
            cursor = block
            remaining = blockSize
            nextBlockSize = min(nextBlockSize * 2, 16 << 20)
        }
        guard let start = cursor else { return nil }
        cursor = start + rounded
        remaining -= rounded
        usedBytes += rounded
        return start
    }

    /// Lends `body` a protobuf-c allocator that takes from this arena and frees nothing.
    func withAllocator<R>(_ body: (UnsafeMutablePointer<ProtobufCAllocator>) throws -> R) rethrows -> R {
        var allocator = ProtobufCAllocator(
            alloc: { data, size in
                guard let data else { return nil }
                return Unmanaged<UnpackArena>.fromOpaque(data).takeUnretainedValue().allocate(size)
            },
            free: { _, _ in },
            allocator_data: Unmanaged.passUnretained(self).toOpaque())
        return try withExtendedLifetime(self) { try body(&allocator) }
    }
}
