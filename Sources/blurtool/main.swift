import BlurToolCLI

#if canImport(Glibc)
    import Glibc
#endif

exit(BlurTool.run(CommandLine.arguments))
