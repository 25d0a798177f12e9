import COpenHealthProto
import Foundation
import Glibc

/// Owns the C memory behind a protobuf-c struct being built for encoding: strings, byte
/// buffers, nested messages and repeated-field arrays. Everything is freed together when the
/// arena goes away, after the message has been packed.
///
/// Memory is handed out from a few large blocks, in order, rather than by one `malloc` per
/// piece: a batch of 500 samples is about 4,500 small pieces (messages, strings, UUIDs), and
/// allocating and freeing each on its own was a third of encoding a query's results
/// (Benchmarks/README.md, "Query benchmark"). Nothing is freed before the arena goes, so
/// handing out is only moving a pointer.
final class WireArena {
    /// The first block is small, so a short request costs little; blocks double up to the
    /// largest size, so a big batch needs few.
    private static let firstBlockBytes = 4 * 1024
    private static let largestBlockBytes = 256 * 1024

    private var blocks: [UnsafeMutableRawPointer] = []
    private var nextBlockBytes = WireArena.firstBlockBytes
    /// The unused rest of the current block.
    private var unused: UnsafeMutableRawPointer?
    private var blockEnd: UnsafeMutableRawPointer?
    /// Buffers holding secrets (passcodes), zeroed before they are freed.
    private var secrets: [UnsafeMutableBufferPointer<UInt8>] = []

    deinit {
        for secret in secrets { if let base = secret.baseAddress { explicit_bzero(base, secret.count) } }
        for block in blocks { block.deallocate() }
    }

    /// A NUL-terminated copy of `value`. protobuf-c reads it up to the first NUL, so a NUL
    /// inside `value` is written as C0 80, which the receiver refuses (`WireText`) instead of
    /// silently reading a shorter string.
    func string(_ value: String) -> UnsafeMutablePointer<CChar> {
        var value = value
        // The NUL search by `memchr` over the bytes in place: `utf8.contains` stepped the string's
        // view byte by byte, a fortieth of `healthctl import`'s CPU (session 11).
        let plain = value.withUTF8 { utf8 -> UnsafeMutablePointer<CChar>? in
            if let source = utf8.baseAddress, memchr(source, 0, utf8.count) != nil { return nil }
            let copy = allocate(byteCount: utf8.count + 1, alignment: 1)
            if let source = utf8.baseAddress { copy.copyMemory(from: source, byteCount: utf8.count) }
            copy.storeBytes(of: 0, toByteOffset: utf8.count, as: UInt8.self)
            return copy.bindMemory(to: CChar.self, capacity: utf8.count + 1)
        }
        if let plain { return plain }
        let packable = WireText.packable(value)
        let copy = allocate(byteCount: packable.count + 1, alignment: 1)
        copy.copyMemory(from: packable, byteCount: packable.count)
        copy.storeBytes(of: 0, toByteOffset: packable.count, as: UInt8.self)
        return copy.bindMemory(to: CChar.self, capacity: packable.count + 1)
    }

    func bytes(_ value: [UInt8]) -> ProtobufCBinaryData {
        guard !value.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        let storage = allocate(UInt8.self, count: value.count)
        storage.initialize(from: value, count: value.count)
        return ProtobufCBinaryData(len: value.count, data: storage)
    }

    /// The 16 bytes of `uuid`, copied straight into the arena (no intermediate array: every
    /// sample and deleted object carries one).
    func bytes(of uuid: UUID) -> ProtobufCBinaryData {
        let storage = allocate(UInt8.self, count: 16)
        withUnsafeBytes(of: uuid.uuid) { UnsafeMutableRawPointer(storage).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        return ProtobufCBinaryData(len: 16, data: storage)
    }

    /// Like `bytes`, for a secret: the copy is zeroed when the arena goes.
    func secretBytes(_ value: [UInt8]) -> ProtobufCBinaryData {
        let data = bytes(value)
        if let base = data.data { secrets.append(UnsafeMutableBufferPointer(start: base, count: data.len)) }
        return data
    }

    /// A nested message, initialized by its generated `__init` and then filled in.
    func message<M: ProtobufCMessageStruct>(_ fill: (inout M) -> Void = { _ in }) -> UnsafeMutablePointer<M> {
        let pointer = allocate(M.self, count: 1)
        // `__init` writes every field of the plain C struct in place (no temporary to copy).
        M.cInit(pointer)
        fill(&pointer.pointee)
        return pointer
    }

    /// A C array for a repeated field; nil when empty (protobuf-c reads nothing for n == 0).
    func array<T>(_ elements: [T]) -> UnsafeMutablePointer<T>? {
        guard !elements.isEmpty else { return nil }
        let pointer = allocate(T.self, count: elements.count)
        pointer.initialize(from: elements, count: elements.count)
        return pointer
    }

    func messages<M: ProtobufCMessageStruct>(_ elements: [UnsafeMutablePointer<M>]) -> UnsafeMutablePointer<UnsafeMutablePointer<M>?>? {
        guard !elements.isEmpty else { return nil }
        let pointer = allocate(UnsafeMutablePointer<M>?.self, count: elements.count)
        for (index, element) in elements.enumerated() { (pointer + index).initialize(to: element) }
        return pointer
    }

    func strings(_ values: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        array(values.map { Optional.some(string($0)) })
    }

    private func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: MemoryLayout<T>.stride * count, alignment: MemoryLayout<T>.alignment)
            .bindMemory(to: T.self, capacity: count)
    }

    private func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let unused, let blockEnd {
            let start = unused.alignedUp(toMultipleOf: alignment)
            if byteCount <= blockEnd - start {
                self.unused = start + byteCount
                return start
            }
        }
        // A piece larger than a quarter block gets a block of its own, so the current block's
        // rest stays in use. 16-byte alignment suits every C type, as malloc's does. Swift's
        // allocator ends the process when memory runs out, like every other allocation here;
        // frame limits bound what input can ask for.
        guard byteCount <= nextBlockBytes / 4 else {
            let block = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
            blocks.append(block)
            return block
        }
        let block = UnsafeMutableRawPointer.allocate(byteCount: nextBlockBytes, alignment: 16)
        blocks.append(block)
        unused = block + byteCount
        blockEnd = block + nextBlockBytes
        nextBlockBytes = min(nextBlockBytes * 2, Self.largestBlockBytes)
        return block
    }
}

/// Reading helpers for unpacked structs: protobuf-c leaves absent strings pointing at its empty
/// string, but a NULL is tolerated too.
enum WireRead {
    /// Every string field's bytes passed `WireText` before unpacking (`WireDepthGuard`), so the
    /// `char *` holds the whole string and valid UTF-8: nothing here is cut short or replaced.
    static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard data.len > 0, let base = data.data else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.len))
    }

    /// Copies a secret out of an unpacked message and zeroes protobuf-c's copy, which is
    /// freed without being cleared.
    static func takingSecret(_ data: ProtobufCBinaryData) -> [UInt8] {
        let copy = bytes(data)
        if data.len > 0, let base = data.data { explicit_bzero(base, data.len) }
        return copy
    }

    static func strings(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int) -> [String] {
        guard let pointer, count > 0 else { return [] }
        return UnsafeBufferPointer(start: pointer, count: count).map { string($0) }
    }

    static func messages<M>(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<M>?>?, count: Int) -> [M] {
        guard let pointer, count > 0 else { return [] }
        return UnsafeBufferPointer(start: pointer, count: count).compactMap { $0?.pointee }
    }
}
