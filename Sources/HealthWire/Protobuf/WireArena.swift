import COpenHealthProto
import Glibc

/// Owns the C memory behind a protobuf-c struct being built for encoding: strings, byte
/// buffers, nested messages and repeated-field arrays. Everything is freed together when the
/// arena goes away, after the message has been packed.
final class WireArena {
    private var allocations: [UnsafeMutableRawPointer] = []
    /// Buffers holding secrets (passcodes), zeroed before they are freed.
    private var secrets: [UnsafeMutableBufferPointer<UInt8>] = []

    deinit {
        for secret in secrets { explicit_bzero(secret.baseAddress!, secret.count) }
        for allocation in allocations { free(allocation) }
    }

    func string(_ value: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(value)!
        allocations.append(copy)
        return copy
    }

    func bytes(_ value: [UInt8]) -> ProtobufCBinaryData {
        guard !value.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        let storage = allocate(UInt8.self, count: value.count)
        storage.initialize(from: value, count: value.count)
        return ProtobufCBinaryData(len: value.count, data: storage)
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
        pointer.initialize(to: M.initialized())
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
        array(elements.map(Optional.some))
    }

    func strings(_ values: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        array(values.map { Optional.some(string($0)) })
    }

    private func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let raw = malloc(MemoryLayout<T>.stride * count)!
        allocations.append(raw)
        return raw.bindMemory(to: T.self, capacity: count)
    }
}

/// Reading helpers for unpacked structs: protobuf-c leaves absent strings pointing at its empty
/// string, but a NULL is tolerated too.
enum WireRead {
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
