import Compositor

// Scenes, layers, animations and emitters compare by value, except for what they share by reference: a picture
// (`Image`) and a set text (`TypesetText`) are equal when they are the same object, as the renderer and the
// frame cache treat them. Two pictures decoded from one file twice are different pictures.

extension Layer.Content: Equatable {
    public static func == (lhs: Layer.Content, rhs: Layer.Content) -> Bool {
        switch (lhs, rhs) {
        case (.image(let a, let fitA, let filterA, let radiusA), .image(let b, let fitB, let filterB, let radiusB)):
            return a === b && fitA == fitB && filterA == filterB && radiusA == radiusB
        case (.shape(let a, let colorA), .shape(let b, let colorB)): return a == b && colorA == colorB
        case (.gradientShape(let a, let fillA), .gradientShape(let b, let fillB)): return a == b && fillA == fillB
        case (.path(let a), .path(let b)): return a == b
        case (.backdrop(let a), .backdrop(let b)): return a == b
        case (.group(let a), .group(let b)): return a == b
        case (.text(let a, let colorA), .text(let b, let colorB)): return a === b && colorA == colorB
        case (.curled(let a, let curlA), .curled(let b, let curlB)): return a == b && curlA == curlB
        case (.emitter(let a), .emitter(let b)): return a == b
        case (.image, _), (.shape, _), (.gradientShape, _), (.path, _), (.backdrop, _), (.group, _), (.text, _),
            (.curled, _), (.emitter, _):
            return false
        }
    }
}

extension AnimatedProperty: Equatable {
    public static func == (lhs: AnimatedProperty, rhs: AnimatedProperty) -> Bool {
        switch (lhs, rhs) {
        case (.opacity(let a), .opacity(let b)), (.rotation(let a), .rotation(let b)),
            (.cornerRadius(let a), .cornerRadius(let b)), (.effect(let a), .effect(let b)),
            (.blur(let a), .blur(let b)), (.dim(let a), .dim(let b)), (.curl(let a), .curl(let b)),
            (.strokeEnd(let a), .strokeEnd(let b)):
            return a == b && lhs.kindIndex == rhs.kindIndex
        case (.transform(let a), .transform(let b)): return a == b
        case (.transform3D(let a), .transform3D(let b)): return a == b
        case (.rotation3D(let axisA, let a), .rotation3D(let axisB, let b)): return axisA == axisB && a == b
        case (.frame(let a), .frame(let b)): return a == b
        case (.color(let a), .color(let b)), (.strokeColor(let a), .strokeColor(let b)):
            return a == b && lhs.kindIndex == rhs.kindIndex
        case (.image(let a), .image(let b)): return a === b
        default: return false
        }
    }

    /// Tells apart the cases that carry the same kind of track.
    private var kindIndex: Int {
        switch self {
        case .opacity: 0
        case .transform: 1
        case .rotation: 2
        case .transform3D: 3
        case .rotation3D: 4
        case .frame: 5
        case .color: 6
        case .cornerRadius: 7
        case .effect: 8
        case .blur: 9
        case .dim: 10
        case .image: 11
        case .curl: 12
        case .strokeEnd: 13
        case .strokeColor: 14
        }
    }
}

extension EmitterCell.Contents: Equatable {
    public static func == (lhs: EmitterCell.Contents, rhs: EmitterCell.Contents) -> Bool {
        switch (lhs, rhs) {
        case (.image(let a), .image(let b)): return a === b
        case (.circle(let diameterA, let colorA), .circle(let diameterB, let colorB)):
            return diameterA == diameterB && colorA == colorB
        case (.image, _), (.circle, _): return false
        }
    }
}
