// tesseract C API and leptonica for Swift, and JPEG/PNG decoding into leptonica images with the codecs'
// messages caught instead of printed.
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <png.h>

// Leptonica decodes JPEG and PNG with the codecs' default message handlers, which print warnings such as
// "Corrupt JPEG data: premature end of data segment" or "libpng warning: iCCP: …" on standard error (leptonica's
// own handlers only see leptonica's messages). These functions decode the same way leptonica does (libjpeg with its
// default settings, RGB into a 32 bpp image, gray into 8 bpp; PNG through libpng) but keep the codecs' messages in
// `larder_image_messages`, for Larder to store as the document's warnings. Swift cannot call setjmp, hence C here.

/// The codec's warnings (newline-separated, the first few) and, on failure, its error.
typedef struct {
    char warnings[1024];
    int warning_count;
    char error[JMSG_LENGTH_MAX];
} larder_image_messages;

static inline void larder_image_add_warning(larder_image_messages *messages, const char *text) {
    messages->warning_count += 1;
    size_t used = strlen(messages->warnings);
    size_t length = strlen(text);
    if (messages->warning_count > 4 || used + length + 2 > sizeof(messages->warnings)) return;
    if (used > 0) messages->warnings[used++] = '\n';
    memcpy(messages->warnings + used, text, length);
    messages->warnings[used + length] = 0;
}

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    larder_image_messages *messages;
} larder_jpeg_error_manager;

static void larder_jpeg_error_exit(j_common_ptr cinfo) {
    larder_jpeg_error_manager *manager = (larder_jpeg_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, manager->messages->error);
    longjmp(manager->escape, 1);
}

static void larder_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    larder_jpeg_error_manager *manager = (larder_jpeg_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    cinfo->err->num_warnings++;
    larder_image_add_warning(manager->messages, text);
}

/// Decodes a JPEG in memory into `*result` as leptonica's `pixReadMemJpeg` would (8 bpp gray, or 32 bpp RGB; CMYK
/// and YCCK converted to RGB the way leptonica does), with its resolution. With `gray` set, a 3-channel JPEG comes
/// out as 8 bpp gray, each row converted as it is decoded with leptonica's weights and rounding
/// (`pixConvertRGBToLuminance`: 0.3 R + 0.5 G + 0.2 B), the same pixels as decoding to RGB and calling
/// `pixConvertTo8`, without the 32 bpp image in between. (libjpeg's own gray output, its luma 0.299 R + 0.587 G +
/// 0.114 B, is cheaper still but reads coloured print differently: on SROIE 022 the store's name in the header was
/// lost.) CMYK and YCCK still come out as RGB. Returns 0 on success; 1 when the codec failed (`messages->error`
/// says why); 2 when the image has more than `max_pixels` pixels (`*width`, `*height` set, nothing decoded).
static inline int larder_jpeg_decode(const unsigned char *data, unsigned long size, long max_pixels, int gray,
                                     larder_image_messages *messages, PIX **result, int *width, int *height) {
    struct jpeg_decompress_struct cinfo;
    larder_jpeg_error_manager manager;
    PIX *volatile pix = NULL;
    JSAMPROW volatile row = NULL;
    *result = NULL;
    *width = 0;
    *height = 0;
    memset(messages, 0, sizeof(*messages));
    cinfo.err = jpeg_std_error(&manager.pub);
    manager.pub.error_exit = larder_jpeg_error_exit;
    manager.pub.emit_message = larder_jpeg_emit_message;
    manager.messages = messages;
    if (setjmp(manager.escape)) {
        jpeg_destroy_decompress(&cinfo);
        PIX *failed = pix;
        pixDestroy(&failed);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, size);
    jpeg_read_header(&cinfo, TRUE);
    jpeg_calc_output_dimensions(&cinfo);
    int w = (int)cinfo.output_width, h = (int)cinfo.output_height, spp = cinfo.out_color_components;
    *width = w;
    *height = h;
    if ((long)w * (long)h > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        return 2;
    }
    int cmyk = (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) && spp == 4;
    if (spp != 1 && spp != 3 && !cmyk) {
        snprintf(messages->error, sizeof(messages->error), "unsupported JPEG with %d components", spp);
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    row = (JSAMPROW)calloc((size_t)spp * (size_t)w, 1);
    pix = pixCreate(w, h, spp == 1 || (gray && spp == 3) ? 8 : 32);
    if (!row || !pix) {
        snprintf(messages->error, sizeof(messages->error), "out of memory for a %d×%d image", w, h);
        longjmp(manager.escape, 1);
    }
    pixSetInputFormat(pix, IFF_JFIF_JPEG);
    jpeg_start_decompress(&cinfo);
    l_int32 wpl = pixGetWpl(pix);
    l_uint32 *pixels = pixGetData(pix);
    for (int i = 0; i < h; i++) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) {
            snprintf(messages->error, sizeof(messages->error), "no data at row %d", i);
            longjmp(manager.escape, 1);
        }
        l_uint32 *line = pixels + (size_t)i * (size_t)wpl;
        if (spp == 1) {
            for (int j = 0; j < w; j++) SET_DATA_BYTE(line, j, row[j]);
        } else if (spp == 3 && gray) {
            for (int j = 0, k = 0; j < w; j++, k += 3) {
                l_int32 value = (l_int32)(L_RED_WEIGHT * row[k] + L_GREEN_WEIGHT * row[k + 1] + L_BLUE_WEIGHT * row[k + 2] + 0.5);
                SET_DATA_BYTE(line, j, value);
            }
        } else if (spp == 3) {
            for (int j = 0, k = 0; j < w; j++, k += 3) composeRGBPixel(row[k], row[k + 1], row[k + 2], line + j);
        } else {
            for (int j = 0, k = 0; j < w; j++, k += 4) {
                int c = row[k], m = row[k + 1], y = row[k + 2], black = row[k + 3];
                int r, g, b;
                if (cinfo.saw_Adobe_marker) {
                    r = black * c / 255; g = black * m / 255; b = black * y / 255;
                } else {
                    r = black * (255 - c) / 255; g = black * (255 - m) / 255; b = black * (255 - y) / 255;
                }
                composeRGBPixel(L_MIN(L_MAX(r, 0), 255), L_MIN(L_MAX(g, 0), 255), L_MIN(L_MAX(b, 0), 255), line + j);
            }
        }
    }
    if (cinfo.density_unit == 1) {
        pixSetResolution(pix, cinfo.X_density, cinfo.Y_density);
    } else if (cinfo.density_unit == 2) {
        pixSetResolution(pix, (l_int32)((l_float32)cinfo.X_density * 2.54 + 0.5),
                         (l_int32)((l_float32)cinfo.Y_density * 2.54 + 0.5));
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    *result = pix;
    return 0;
}

/// The resolution a PNG's pHYs chunk gives in pixels per inch (0 when absent or not in metres), as leptonica reads it.
static inline int larder_png_resolution(const unsigned char *data, unsigned long size) {
    unsigned long at = 8;
    while (at + 12 <= size) {
        unsigned long length = ((unsigned long)data[at] << 24) | ((unsigned long)data[at + 1] << 16)
            | ((unsigned long)data[at + 2] << 8) | data[at + 3];
        const unsigned char *type = data + at + 4;
        if (memcmp(type, "IDAT", 4) == 0 || length > size - at - 12) return 0;
        if (memcmp(type, "pHYs", 4) == 0 && length == 9 && data[at + 16] == 1) {
            const unsigned char *p = data + at + 8;
            unsigned long x = ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | p[3];
            return (int)((l_float32)x / 39.37 + 0.5);
        }
        at += length + 12;
    }
    return 0;
}

/// Decodes a PNG in memory with libpng's simplified API (which keeps its warnings instead of printing them):
/// colour and palette images into 32 bpp RGB, gray into 8 bpp (alpha dropped, as leptonica's conversion to gray
/// ignores it). Returns 0, 1 or 2 as `larder_jpeg_decode`.
static inline int larder_png_decode(const unsigned char *data, unsigned long size, long max_pixels,
                                    larder_image_messages *messages, PIX **result, int *width, int *height) {
    png_image image;
    *result = NULL;
    *width = 0;
    *height = 0;
    memset(messages, 0, sizeof(*messages));
    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        snprintf(messages->error, sizeof(messages->error), "%s", image.message);
        return 1;
    }
    if (image.warning_or_error & PNG_IMAGE_WARNING) larder_image_add_warning(messages, image.message);
    *width = (int)image.width;
    *height = (int)image.height;
    if ((long)image.width * (long)image.height > max_pixels) {
        png_image_free(&image);
        return 2;
    }
    int color = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
    image.format = color ? PNG_FORMAT_RGBA : PNG_FORMAT_GA;
    size_t stride = PNG_IMAGE_ROW_STRIDE(image);
    unsigned char *buffer = malloc(PNG_IMAGE_BUFFER_SIZE(image, stride));
    PIX *pix = pixCreate((int)image.width, (int)image.height, color ? 32 : 8);
    if (!buffer || !pix) {
        snprintf(messages->error, sizeof(messages->error), "out of memory for a %u×%u image", image.width, image.height);
        free(buffer);
        pixDestroy(&pix);
        png_image_free(&image);
        return 1;
    }
    image.warning_or_error = 0;
    if (!png_image_finish_read(&image, NULL, buffer, (png_int_32)stride, NULL)) {
        snprintf(messages->error, sizeof(messages->error), "%s", image.message);
        free(buffer);
        pixDestroy(&pix);
        return 1;
    }
    if (image.warning_or_error & PNG_IMAGE_WARNING) larder_image_add_warning(messages, image.message);
    pixSetInputFormat(pix, IFF_PNG);
    l_int32 wpl = pixGetWpl(pix);
    l_uint32 *pixels = pixGetData(pix);
    for (png_uint_32 i = 0; i < image.height; i++) {
        const unsigned char *row = buffer + (size_t)i * stride;
        l_uint32 *line = pixels + (size_t)i * (size_t)wpl;
        if (color) {
            for (png_uint_32 j = 0; j < image.width; j++) composeRGBPixel(row[4 * j], row[4 * j + 1], row[4 * j + 2], line + j);
        } else {
            for (png_uint_32 j = 0; j < image.width; j++) SET_DATA_BYTE(line, j, row[2 * j]);
        }
    }
    free(buffer);
    int resolution = larder_png_resolution(data, size);
    if (resolution > 0) pixSetResolution(pix, resolution, resolution);
    *result = pix;
    return 0;
}
