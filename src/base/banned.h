/*
 * banned.h - functions sworn never calls.  Each is unbounded, not reentrant,
 * or hides its errors; the replacement is named beside it.  Included by
 * base.h, so every file of the project sees it.  System headers come first in
 * each file, so their own declarations are not disturbed.
 */
#ifndef SW_BANNED_H
#define SW_BANNED_H

#define SW_BANNED(func) sorry_##func##_is_banned_in_sworn

#undef strcpy
#define strcpy(x, y) SW_BANNED(strcpy)     /* use snprintf or sw_buf */
#undef strcat
#define strcat(x, y) SW_BANNED(strcat)     /* use sw_buf_adds */
#undef strncpy
#define strncpy(x, y, n) SW_BANNED(strncpy) /* silently unterminated */
#undef strncat
#define strncat(x, y, n) SW_BANNED(strncat)
#undef sprintf
#define sprintf(...) SW_BANNED(sprintf)    /* use snprintf or sw_buf_addf */
#undef vsprintf
#define vsprintf(...) SW_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) SW_BANNED(strtok)     /* not reentrant; walk the bytes */
#undef gets
#define gets(x) SW_BANNED(gets)
#undef atoi
#define atoi(x) SW_BANNED(atoi)            /* hides errors; use sw_parse_u64 */
#undef gmtime
#define gmtime(t) SW_BANNED(gmtime)        /* use gmtime_r */
#undef localtime
#define localtime(t) SW_BANNED(localtime)  /* use localtime_r */

#endif /* SW_BANNED_H */
