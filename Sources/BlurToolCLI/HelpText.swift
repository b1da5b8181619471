import Compositor

enum HelpText {
    static let version = "blurtool \(LibraryVersion.string)"

    /// The usage of the subcommand `first` names (the first argument), or of them all; shown under a usage error.
    static func usageLine(for first: String?) -> String {
        switch first {
        case "compose": return "blurtool compose SCENE.json [-o OUTPUT]"
        case "animate":
            return "blurtool animate SCENE.json [--fps N] [--duration S] [--loop N] "
                + "[-o OUTPUT.png|.webp|.y4m|FOLDER/|-], "
                + "blurtool animate SCENE.json --at S [-o OUTPUT.png|.jpg]"
        case "transition":
            return "blurtool transition FROM TO --style NAME [--duration S] [--curve SPEC] [--fps N] [--size WxH] "
                + "[-o OUTPUT.png|.webp|.y4m|FOLDER/|-]"
        case "curve": return "blurtool curve SPEC [--samples N] [--format csv|png] [-o OUTPUT]"
        case "batch":
            return "blurtool batch SOURCE -o DEST (--material NAME[,NAME…] | --sigma S | --size WxH) "
                + "[--appearance light,dark] [-j N] [--shard K/N | --shards N] [--report FILE] [--sheet] [--quiet]"
        case "sheet": return "blurtool sheet PHOTO [-o PAGE.html] [--size WxH] [--dim D] [--foreground FILE] [--embed]"
        case "info": return "blurtool info INPUT..."
        case "materials": return "blurtool materials"
        default:
            return "blurtool INPUT (--material NAME | --sigma S | --size WxH | --transform T) [-o OUTPUT], "
                + "blurtool compose|animate SCENE.json [-o OUTPUT], blurtool transition FROM TO --style NAME, "
                + "blurtool batch SOURCE -o DEST …, blurtool sheet PHOTO"
        }
    }

    static let usage = """
        OVERVIEW: Turn photos into the frosted, blurred backgrounds iOS draws behind sheets and cards.

        USAGE: blurtool INPUT... --material NAME [--appearance light|dark] [--dim OPACITY] [-o OUTPUT]
               blurtool INPUT... --sigma S [--edge mirror|clamp|wrap|transparent] [-o OUTPUT]
               blurtool INPUT... --size WxH | --transform TEXT [-o OUTPUT]   (a resize or a warp alone)
               blurtool compose SCENE.json [-o OUTPUT]
               blurtool animate SCENE.json [--fps N] [--duration S] [-o OUTPUT.png|.webp|FOLDER/|-]
               blurtool animate SCENE.json --at S [-o OUTPUT.png|.jpg]
               blurtool transition FROM TO --style NAME [--duration S] [--curve SPEC] [--fps N] [--size WxH]
                                   [-o OUTPUT.png|.webp|.y4m|FOLDER/|-]
               blurtool curve SPEC [--samples N] [--format csv|png] [-o OUTPUT]
               blurtool batch SOURCE -o DEST --material NAME[,NAME…] [--appearance light,dark]
                              [--size WxH[,WxH…]] [-j N] [--shard K/N | --shards N] [--report FILE]
                              [--sheet] [--quiet] [--list]
               blurtool sheet PHOTO [-o PAGE.html] [--size WxH] [--dim D] [--foreground FILE] [--embed]
               blurtool materials
               blurtool info INPUT...

        ARGUMENTS:
          INPUT                   A JPEG or PNG (recognised by content, not name), or - for standard input.
                                  With several INPUTs, each output gets its default name (beside its
                                  input, or in the -o directory); a failure is reported and the rest go on.
          SCENE.json              A scene file: canvas and layers (image, color, shape, backdrop, text,
                                  group, emitter) with frames, opacity, blend operators and transforms; image and
                                  font paths relative to it (text: a family fontconfig knows, Inter by
                                  default, or a font file; style or size, weight, alignment, lineLimit…,
                                  laid out as UILabel does). compose takes only the output, decoding,
                                  --threads and --precision
                                  options; its default output is SCENE.png beside it. Layers may carry
                                  animations (property, to, curve, duration, delay, …; see the README):
                                  animate renders frames at t = k/fps up to the end, drawn on every core,
                                  to an animated PNG (.png, .apng), an animated WebP (.webp), numbered PNGs
                                  (FOLDER/frame-0000.png …) or YUV4MPEG2 (--format y4m, e.g. -o - |
                                  ffmpeg -i - out.mp4); a progress bar shows when stderr is a terminal.
          FROM TO                 transition: two JPEGs or PNGs of any sizes, each aspect-filled (Lanczos-3)
                                  to --size (default: FROM's upright size); frames at t = k/fps from FROM
                                  (t = 0) to TO (t = --duration, default 1 s), as ffmpeg's xfade draws
                                  them, to the outputs animate writes. Default output: FROM-STYLE.png.
          SPEC                    A timing curve, as scene files write one: linear, easeIn, easeOut,
                                  easeInOut, ease, cubic-bezier(x1,y1,x2,y2), steps(n, jump-end),
                                  spring(damping: 0.2, velocity: 0.3, duration: 0.8) (UIKit),
                                  spring(mass: 1, stiffness: 100, damping: 10) (physical),
                                  spring(response: 0.5, dampingFraction: 0.825), smooth, snappy, bouncy…
                                  curve prints --samples lines t,value (default 11) from t = 0 to the
                                  curve's duration (a spring's own, else 1 s), or with --format png (or
                                  -o NAME.png) draws a 480x320 plot.

          SOURCE                  batch: a folder (walked recursively; JPEGs and PNGs recognised by
                                  content or name; hidden files and DEST left out) or a file listing one
                                  photo per line (- for standard input). Outputs mirror it under DEST:
                                  DEST/sub/dir/<stem>-<material>[-<appearance>][-<W>x<H>].<ext>, one per
                                  material x appearance x size listed (comma-separated or repeated), all
                                  from one decode of the photo. Photos run in parallel (-j N, default one
                                  per core, each on the cores left over, or --threads), their memory held
                                  together under a quarter of what the process may use (at most 2 GiB).
                                  Resumable: a photo whose outputs exist and whose size, modification time
                                  and options match the journal in DEST/.blurtool-batch/ is skipped; the
                                  first SIGINT, SIGTERM or SIGHUP finishes the photos in flight and exits 75
                                  (a second one stops at once, leaving no partial file). --shard K/N (K from
                                  0) takes the photos whose relative path hashes to K; without it, the
                                  index comes from SLURM_ARRAY_TASK_ID (count: SLURM_ARRAY_TASK_COUNT or
                                  --shards N) or JOB_COMPLETION_INDEX (with --shards N). --report FILE: a
                                  JSON line per photo (input, outputs, status done|skipped|failed, ms,
                                  error). --list prints this shard's photos and does nothing. --sheet
                                  writes DEST/index.html, a tile per photo, failures in red. A progress
                                  bar shows when stderr is a terminal (not with --quiet).
          PHOTO                   sheet: the photo under every material in light and dark as phone
                                  screens (--size, default 390x844) on one HTML page (default
                                  <stem>-sheet.html), the pictures in <page>_files/ beside it or inside it
                                  (--embed), each tile labelled; --dim over each, --foreground (a PNG with
                                  alpha, or a scene file composed) fitted over each.

        OPTIONS:
          -m, --material NAME     A material: ultraThin, thin, regular, thick, ultraThick, bar, chrome,
                                  extraLight, light, dark, or a UIKit style such as systemThinMaterialDark.
                                  Any case; kebab case (ultra-thin) too. 'blurtool materials' lists them.
          -a, --appearance MODE   light (default) or dark.
          --dim OPACITY           Black overlay on top, 0...1, as Color.black.opacity(0.6).
          -s, --sigma S           Blur σ in pixels. Alone: blur only, no tint. With a material: its blur.
          --saturation X          Override the material's saturation (1 = unchanged).
          --tint COLOR            Override the material's tint: #rrggbb[aa] (alpha = opacity).
          --grain X               Monochrome grain, 0...1 of full scale (default 0).
          --dither                Dither the rounding of a plain --sigma blur (materials always dither).
          --pixels-per-point X    Pixels per point (default: shorter side / 390, a phone screen).
          --edge MODE             What the blur sees beyond the edges (default mirror).
          --precision MODE        exact, fast (pyramid, cost independent of σ) or auto (default).
          --size WxH              Resample to this size first (e.g. 1170x2532, a phone screen in pixels);
                                  the material is then sized for it, and a JPEG is decoded no larger
                                  than needed. Alone (no material, no --sigma): a resize, no blur. W*H
                                  must be within --max-pixels.
          --fit MODE              fill (default: cover and crop, as .scaledToFill()), fit (letterbox, as
                                  .scaledToFit()) or stretch.
          --filter NAME           Resampling filter: lanczos3, catmull-rom, mitchell, bilinear, nearest.
                                  Default: Lanczos-3 for --size, bilinear where a wide blur follows (no
                                  filter could show through it) and for --transform.
          --background COLOR      What --fit fit letterboxes onto (default transparent).
          --transform TEXT        Draw the picture through an affine transform, as CSS writes one:
                                  "translate(600,0) scale(5) rotate(30deg)" (the rightmost applies first;
                                  also translateX/Y, scaleX/Y, skewX/Y, matrix(a,b,c,d,tx,ty)); the canvas
                                  keeps its size, uncovered parts are transparent; after --size. Alone:
                                  a warp, no blur.
          -o, --output PATH       Output file, a directory, or - for standard output. Default:
                                  <stem>-<material>.<ext> beside the input (<stem>-sigma<S>, -<W>x<H>,
                                  -transformed without a material; the path is printed). A file is written
                                  through a temporary file beside it and renamed (removed if the run fails
                                  or is interrupted); a symbolic link is written through to its target; a
                                  character device or FIFO (/dev/null, /dev/stdout) is written directly;
                                  other special files are refused (73). The input is never overwritten.
          -f, --format FORMAT     png or jpeg (default: from the output name, else the input's format).
          -q, --quality Q         JPEG quality 1...100 (default 90).
          --chroma 420|444        JPEG chroma subsampling (default 420).
          --progressive           Progressive JPEG (slower to write).
          --optimize              Optimised JPEG Huffman tables (smaller, slower to write).
          --png-compression N     0...9 as zlib counts (default 1, fast; 5 for an animated PNG).
          --no-auto-orient        Keep the stored orientation instead of applying EXIF orientation.
          --lenient               Keep what decoded from truncated or corrupt data (with a warning).
          --max-pixels N          Refuse larger images and --size frames (default 100000000), checked
                                  before decoding.
          -j, --threads N         Use at most N threads (default: every core); output is identical for any N.
          --fps N                 animate, transition: frames per second (default 60).
          --duration S            animate: seconds to render (default: until the scene's animations end);
                                  transition: its length (default 1).
          --at S                  animate: only the frame at S seconds, to a PNG or JPEG (the same pixels
                                  as that frame of the whole animation).
          --loop N                animate, transition: times an animated PNG or WebP plays (default 0: for ever).
          --lossy                 animate, transition: a lossy WebP (quality -q, default 90) instead of lossless.
          --scale X               animate: pixels per point instead of the scene's (a preview: 1).
          --benchmark             animate, transition: draw the frames, write nothing, print how fast.
          --style NAME            transition: fade, fadeblack, fadewhite, dissolve, wipeleft, wiperight,
                                  wipeup, wipedown, slideleft, slideright, slideup, slidedown, smoothleft,
                                  smoothright, circleopen, circleclose, radial, pixelize, hblur, zoomin
                                  (ffmpeg's xfade), material (FROM blurs into a frosted material, TO
                                  sharpens out of it), curlup, curldown (FROM curls away as a page
                                  over TO, as UIKit's page curls).
          --curve SPEC            transition: how progress moves in time (a SPEC, default linear; a
                                  spring's settling time is stretched to --duration).
          -v, --verbose           Report the route taken and the time of each stage on stderr.
          -h, --help              Show this help.
          -V, --version           Show the version.

        EXIT STATUS:
          0 success, 64 usage error, 65 bad or unsupported input data, 66 input missing or unreadable,
          70 internal error, 73 cannot create the output (also: too large to encode in the memory
          available), 74 I/O error, 75 a batch stopped by a signal before the end (run it again to
          finish), 78 BLURTOOL_KERNELS names kernels this CPU or build lacks. A batch exits 65 when a
          photo failed (the others are done), 73 or 74 when its destination did.
          Killed by SIGINT, SIGTERM or SIGHUP: that signal's status.
          Numbers are ASCII decimals (12, 0.5, 2.5e3); whole numbers are digits only.
          --edge and --precision need a blur (--material or --sigma), --appearance and
          --pixels-per-point a material: given without one they are usage errors, not ignored.

        EXAMPLES:
          blurtool photo.jpg --material thin                  writes photo-thin.jpg
          blurtool photo.jpg -m ultraThin -a dark --dim 0.6 -o background.png
          blurtool photo.jpg --sigma 20 --edge clamp -o blurred.jpg
          blurtool photo.jpg --material thin --size 1170x2532 -o background.jpg
          blurtool photo.jpg --size 1170x2532 -o screen.jpg      resize only
          cat photo.jpg | blurtool - -m regular --format png -o - > out.png
          blurtool photos/*.jpg --material thin -o backgrounds/
          blurtool info photo.jpg
          blurtool batch ~/Photos -o backgrounds/ -m thin,regular -a light,dark --size 1170x2532
          blurtool sheet photo.jpg --dim 0.2 -o materials.html
          blurtool animate fixtures/review-entrance.json -o entrance.png
          blurtool transition table.jpg apples.jpg --style circleopen --size 1170x2532 -o change.webp
          blurtool curve 'spring(damping: 0.2, velocity: 0.3, duration: 0.8)' -o spring.png
        """
}
