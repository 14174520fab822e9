// A client that speaks binary only, as a chat app does: it depends on the `IMWireBinary` product and
// nothing else of IMWire, so it links the model and the binary codec and no other format (proto3
// JSON, tim-rest, validation and the view are not compiled into it; DependencyFootprintTests checks
// the build plan, Scripts/size the size).
//
//   BinaryClient DIR   decodes every `.binpb` file in DIR, encodes the message again, checks that
//                      the bytes are the ones it read (the golden fixtures are canonical encodings
//                      written by Google's Python runtime) and that a second decode gives an equal
//                      message; prints the count and exits 1 on the first difference.
import Foundation
import IMWireBinary

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: BinaryClient DIR\n".utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".binpb") }.sorted()
var checked = 0
for name in names {
    let input = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    let message = try Message(serializedBytes: input)
    let output = try message.serializedBytes()
    guard output == input, try Message(serializedBytes: output) == message else {
        FileHandle.standardError.write(Data("BinaryClient: \(name): the encoding differs from the input\n".utf8))
        exit(1)
    }
    checked += 1
}
guard checked > 0 else {
    FileHandle.standardError.write(Data("BinaryClient: no .binpb file in \(directory.path)\n".utf8))
    exit(1)
}
print("BinaryClient: \(checked) messages decoded and encoded again, byte for byte")
