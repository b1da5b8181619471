// libjpeg's header needs <stdio.h> (FILE) and <stddef.h> (size_t) before it.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
