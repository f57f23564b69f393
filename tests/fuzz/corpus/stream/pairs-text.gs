##gnnstream 1
@tensor id=0 name=predictions rows=8 cols=3 type=i32 columns=item,true,pred task=node dataset=toy classes=3
0	0	0
1	0	0
2	0	0
3	0	1
4	1	1
5	1	2
6	2	2
7	2	0
@tensor id=1 name=predictions rows=8 cols=3 type=i32 columns=item,true,pred task=node dataset=toy classes=3
0	0	0
1	0	0
2	0	0
3	0	0
4	1	1
5	1	1
6	2	2
7	2	2
@end
