// `import IMWire` brings every module of the library: the model and each format, as one module did
// before the formats were split (a program that needs fewer imports the modules it uses).
@_exported import IMWireCore
@_exported import IMWireBinary
@_exported import IMWireJSONText
@_exported import IMWireJSON
@_exported import IMWireView
@_exported import IMWireTUIKit
@_exported import IMWireTIMREST
@_exported import IMWireValidation
@_exported import IMWireStreams
