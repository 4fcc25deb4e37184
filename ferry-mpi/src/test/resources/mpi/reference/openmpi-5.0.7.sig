class mpi.CartComm final
class mpi.CartParms final
class mpi.Comm
class mpi.Count final
class mpi.Datatype final
class mpi.DistGraphNeighbors final
class mpi.DoubleComplex final
class mpi.DoubleInt final
class mpi.DoubleInt$Data final
class mpi.Errhandler final
class mpi.FloatComplex final
class mpi.FloatInt final
class mpi.FloatInt$Data final
class mpi.Freeable interface
class mpi.GraphComm final
class mpi.GraphParms final
class mpi.Group final
class mpi.Info final
class mpi.Int2 final
class mpi.Int2$Data final
class mpi.Intercomm final
class mpi.Intracomm
class mpi.LongInt final
class mpi.LongInt$Data final
class mpi.MPI final
class mpi.MPIException final
class mpi.Message final
class mpi.Op final
class mpi.Prequest final
class mpi.Request
class mpi.ShiftParms final
class mpi.ShortInt final
class mpi.ShortInt$Data final
class mpi.Status final
class mpi.Struct abstract
class mpi.Struct$Data abstract
class mpi.UserFunction abstract
class mpi.Version final
class mpi.Win final
ctor mpi.Count(long)
ctor mpi.DoubleInt$Data(mpi.DoubleInt)
ctor mpi.FloatInt$Data(mpi.FloatInt)
ctor mpi.Info()
ctor mpi.Int2$Data(mpi.Int2)
ctor mpi.LongInt$Data(mpi.LongInt)
ctor mpi.MPI()
ctor mpi.MPIException(java.lang.String)
ctor mpi.MPIException(java.lang.Throwable)
ctor mpi.Message()
ctor mpi.Op(mpi.UserFunction,boolean)
ctor mpi.ShortInt$Data(mpi.ShortInt)
ctor mpi.Struct$Data(mpi.Struct)
ctor mpi.Struct()
ctor mpi.UserFunction()
ctor mpi.Win(int,int,mpi.Info,mpi.Comm,java.nio.Buffer,int)
ctor mpi.Win(java.nio.Buffer,int,int,mpi.Info,mpi.Comm)
ctor mpi.Win(mpi.Info,mpi.Comm)
field static mpi.CartComm#TYPE_SHARED int
field static mpi.Comm#TYPE_SHARED int
field static mpi.GraphComm#TYPE_SHARED int
field static mpi.Intercomm#TYPE_SHARED int
field static mpi.Intracomm#TYPE_SHARED int
field static mpi.MPI#ANY_SOURCE int
field static mpi.MPI#ANY_TAG int
field static mpi.MPI#APPNUM int
field static mpi.MPI#BAND mpi.Op
field static mpi.MPI#BOOLEAN mpi.Datatype
field static mpi.MPI#BOR mpi.Op
field static mpi.MPI#BSEND_OVERHEAD int
field static mpi.MPI#BXOR mpi.Op
field static mpi.MPI#BYTE mpi.Datatype
field static mpi.MPI#CART int
field static mpi.MPI#CHAR mpi.Datatype
field static mpi.MPI#COMM_SELF mpi.Intracomm
field static mpi.MPI#COMM_WORLD mpi.Intracomm
field static mpi.MPI#CONGRUENT int
field static mpi.MPI#DATATYPE_NULL mpi.Datatype
field static mpi.MPI#DISPLACEMENT_CURRENT int
field static mpi.MPI#DISTRIBUTE_BLOCK int
field static mpi.MPI#DISTRIBUTE_CYCLIC int
field static mpi.MPI#DISTRIBUTE_DFLT_DARG int
field static mpi.MPI#DISTRIBUTE_NONE int
field static mpi.MPI#DIST_GRAPH int
field static mpi.MPI#DOUBLE mpi.Datatype
field static mpi.MPI#DOUBLE_COMPLEX mpi.Datatype
field static mpi.MPI#DOUBLE_INT mpi.Datatype
field static mpi.MPI#ERRORS_ABORT mpi.Errhandler
field static mpi.MPI#ERRORS_ARE_FATAL mpi.Errhandler
field static mpi.MPI#ERRORS_RETURN mpi.Errhandler
field static mpi.MPI#ERR_ACCESS int
field static mpi.MPI#ERR_AMODE int
field static mpi.MPI#ERR_ARG int
field static mpi.MPI#ERR_ASSERT int
field static mpi.MPI#ERR_BAD_FILE int
field static mpi.MPI#ERR_BASE int
field static mpi.MPI#ERR_BUFFER int
field static mpi.MPI#ERR_COMM int
field static mpi.MPI#ERR_CONVERSION int
field static mpi.MPI#ERR_COUNT int
field static mpi.MPI#ERR_DIMS int
field static mpi.MPI#ERR_DISP int
field static mpi.MPI#ERR_DUP_DATAREP int
field static mpi.MPI#ERR_FILE int
field static mpi.MPI#ERR_FILE_EXISTS int
field static mpi.MPI#ERR_FILE_IN_USE int
field static mpi.MPI#ERR_GROUP int
field static mpi.MPI#ERR_INFO int
field static mpi.MPI#ERR_INFO_KEY int
field static mpi.MPI#ERR_INFO_NOKEY int
field static mpi.MPI#ERR_INFO_VALUE int
field static mpi.MPI#ERR_INTERN int
field static mpi.MPI#ERR_IN_STATUS int
field static mpi.MPI#ERR_IO int
field static mpi.MPI#ERR_KEYVAL int
field static mpi.MPI#ERR_LASTCODE int
field static mpi.MPI#ERR_LOCKTYPE int
field static mpi.MPI#ERR_NAME int
field static mpi.MPI#ERR_NOT_SAME int
field static mpi.MPI#ERR_NO_MEM int
field static mpi.MPI#ERR_NO_SPACE int
field static mpi.MPI#ERR_NO_SUCH_FILE int
field static mpi.MPI#ERR_OP int
field static mpi.MPI#ERR_OTHER int
field static mpi.MPI#ERR_PENDING int
field static mpi.MPI#ERR_PORT int
field static mpi.MPI#ERR_PROC_ABORTED int
field static mpi.MPI#ERR_QUOTA int
field static mpi.MPI#ERR_RANK int
field static mpi.MPI#ERR_READ_ONLY int
field static mpi.MPI#ERR_REQUEST int
field static mpi.MPI#ERR_RMA_CONFLICT int
field static mpi.MPI#ERR_RMA_SYNC int
field static mpi.MPI#ERR_ROOT int
field static mpi.MPI#ERR_SERVICE int
field static mpi.MPI#ERR_SIZE int
field static mpi.MPI#ERR_SPAWN int
field static mpi.MPI#ERR_SYSRESOURCE int
field static mpi.MPI#ERR_TAG int
field static mpi.MPI#ERR_TOPOLOGY int
field static mpi.MPI#ERR_TRUNCATE int
field static mpi.MPI#ERR_TYPE int
field static mpi.MPI#ERR_UNKNOWN int
field static mpi.MPI#ERR_UNSUPPORTED_DATAREP int
field static mpi.MPI#ERR_UNSUPPORTED_OPERATION int
field static mpi.MPI#ERR_WIN int
field static mpi.MPI#FLOAT mpi.Datatype
field static mpi.MPI#FLOAT_COMPLEX mpi.Datatype
field static mpi.MPI#FLOAT_INT mpi.Datatype
field static mpi.MPI#GRAPH int
field static mpi.MPI#GROUP_EMPTY mpi.Group
field static mpi.MPI#HOST int
field static mpi.MPI#IDENT int
field static mpi.MPI#INFO_ENV mpi.Info
field static mpi.MPI#INFO_NULL mpi.Info
field static mpi.MPI#INT mpi.Datatype
field static mpi.MPI#INT2 mpi.Datatype
field static mpi.MPI#IO int
field static mpi.MPI#KEYVAL_INVALID int
field static mpi.MPI#LAND mpi.Op
field static mpi.MPI#LASTUSEDCODE int
field static mpi.MPI#LOCK_EXCLUSIVE int
field static mpi.MPI#LOCK_SHARED int
field static mpi.MPI#LONG mpi.Datatype
field static mpi.MPI#LONG_INT mpi.Datatype
field static mpi.MPI#LOR mpi.Op
field static mpi.MPI#LXOR mpi.Op
field static mpi.MPI#MAX mpi.Op
field static mpi.MPI#MAXLOC mpi.Op
field static mpi.MPI#MAX_DATAREP_STRING int
field static mpi.MPI#MAX_INFO_KEY int
field static mpi.MPI#MAX_INFO_VAL int
field static mpi.MPI#MAX_OBJECT_NAME int
field static mpi.MPI#MAX_PORT_NAME int
field static mpi.MPI#MIN mpi.Op
field static mpi.MPI#MINLOC mpi.Op
field static mpi.MPI#MODE_APPEND int
field static mpi.MPI#MODE_CREATE int
field static mpi.MPI#MODE_DELETE_ON_CLOSE int
field static mpi.MPI#MODE_EXCL int
field static mpi.MPI#MODE_NOCHECK int
field static mpi.MPI#MODE_NOPRECEDE int
field static mpi.MPI#MODE_NOPUT int
field static mpi.MPI#MODE_NOSTORE int
field static mpi.MPI#MODE_NOSUCCEED int
field static mpi.MPI#MODE_RDONLY int
field static mpi.MPI#MODE_RDWR int
field static mpi.MPI#MODE_SEQUENTIAL int
field static mpi.MPI#MODE_UNIQUE_OPEN int
field static mpi.MPI#MODE_WRONLY int
field static mpi.MPI#NO_OP mpi.Op
field static mpi.MPI#ORDER_C int
field static mpi.MPI#ORDER_FORTRAN int
field static mpi.MPI#PACKED mpi.Datatype
field static mpi.MPI#PROC_NULL int
field static mpi.MPI#PROD mpi.Op
field static mpi.MPI#REPLACE mpi.Op
field static mpi.MPI#REQUEST_NULL mpi.Request
field static mpi.MPI#ROOT int
field static mpi.MPI#SEEK_CUR int
field static mpi.MPI#SEEK_END int
field static mpi.MPI#SEEK_SET int
field static mpi.MPI#SHORT mpi.Datatype
field static mpi.MPI#SHORT_INT mpi.Datatype
field static mpi.MPI#SIMILAR int
field static mpi.MPI#SUBVERSION int
field static mpi.MPI#SUCCESS int
field static mpi.MPI#SUM mpi.Op
field static mpi.MPI#TAG_UB int
field static mpi.MPI#THREAD_FUNNELED int
field static mpi.MPI#THREAD_MULTIPLE int
field static mpi.MPI#THREAD_SERIALIZED int
field static mpi.MPI#THREAD_SINGLE int
field static mpi.MPI#UNDEFINED int
field static mpi.MPI#UNEQUAL int
field static mpi.MPI#UNIVERSE_SIZE int
field static mpi.MPI#VERSION int
field static mpi.MPI#WIN_BASE int
field static mpi.MPI#WIN_DISP_UNIT int
field static mpi.MPI#WIN_SIZE int
field static mpi.MPI#WTIME_IS_GLOBAL int
field static mpi.MPI#doubleInt mpi.DoubleInt
field static mpi.MPI#floatInt mpi.FloatInt
field static mpi.MPI#int2 mpi.Int2
field static mpi.MPI#longInt mpi.LongInt
field static mpi.MPI#shortInt mpi.ShortInt
field static mpi.Win#FLAVOR_PRIVATE int
field static mpi.Win#FLAVOR_SHARED int
field static mpi.Win#WIN_NULL int
method abstract mpi.Freeable#free() void
method abstract protected mpi.Struct#newData() mpi.Struct$Data
method mpi.CartComm#abort(int) void
method mpi.CartComm#accept(java.lang.String,int) mpi.Intercomm
method mpi.CartComm#accept(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.CartComm#allGather(java.lang.Object,int,mpi.Datatype) void
method mpi.CartComm#allGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.CartComm#allGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.CartComm#allGatherv(java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.CartComm#allReduce(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#allReduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#allToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.CartComm#allToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.CartComm#allToAllw(java.lang.Object,int[],int[],mpi.Datatype[],java.lang.Object,int[],int[],mpi.Datatype[]) void
method mpi.CartComm#bSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.CartComm#bSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.CartComm#barrier() void
method mpi.CartComm#bcast(java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#callErrhandler(int) void
method mpi.CartComm#clone() mpi.CartComm
method mpi.CartComm#connect(java.lang.String,int) mpi.Intercomm
method mpi.CartComm#connect(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.CartComm#create(mpi.Group) mpi.Intracomm
method mpi.CartComm#createCart(int[],boolean[],boolean) mpi.CartComm
method mpi.CartComm#createDistGraph(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.CartComm#createDistGraph(int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.CartComm#createDistGraphAdjacent(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.CartComm#createDistGraphAdjacent(int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.CartComm#createGraph(int[],int[],boolean) mpi.GraphComm
method mpi.CartComm#createGroup(mpi.Group,int) mpi.Intracomm
method mpi.CartComm#createIntercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.CartComm#deleteAttr(int) void
method mpi.CartComm#disconnect() void
method mpi.CartComm#dup() mpi.CartComm
method mpi.CartComm#dupWithInfo(mpi.Info) mpi.CartComm
method mpi.CartComm#exScan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#exScan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#free() void
method mpi.CartComm#gather(java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#gather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#gatherv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#gatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.CartComm#gatherv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.CartComm#getAttr(int) java.lang.Object
method mpi.CartComm#getCoords(int) int[]
method mpi.CartComm#getErrhandler() mpi.Errhandler
method mpi.CartComm#getGroup() mpi.Group
method mpi.CartComm#getInfo() mpi.Info
method mpi.CartComm#getName() java.lang.String
method mpi.CartComm#getRank() int
method mpi.CartComm#getRank(int[]) int
method mpi.CartComm#getRequest() mpi.Request
method mpi.CartComm#getSize() int
method mpi.CartComm#getTopo() mpi.CartParms
method mpi.CartComm#getTopology() int
method mpi.CartComm#iAllGather(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.CartComm#iAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.CartComm#iAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.CartComm#iAllGatherv(java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.CartComm#iAllReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iAllReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.CartComm#iAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.CartComm#iAllToAllw(java.nio.Buffer,int[],int[],mpi.Datatype[],java.nio.Buffer,int[],int[],mpi.Datatype[]) mpi.Request
method mpi.CartComm#iBarrier() mpi.Request
method mpi.CartComm#iBcast(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iDup() mpi.CartComm
method mpi.CartComm#iExScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iExScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iGather(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iGatherv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.CartComm#iGatherv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.CartComm#iNeighborAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.CartComm#iNeighborAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.CartComm#iNeighborAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.CartComm#iNeighborAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.CartComm#iProbe(int,int) mpi.Status
method mpi.CartComm#iRecv(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.CartComm#iReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.CartComm#iReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.CartComm#iReduceScatter(java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iReduceScatter(java.nio.Buffer,java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iReduceScatterBlock(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iReduceScatterBlock(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.CartComm#iScatter(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iScatter(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iScatterv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.CartComm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.CartComm#iSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.CartComm#ibSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.CartComm#irSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.CartComm#isInter() boolean
method mpi.CartComm#isNull() boolean
method mpi.CartComm#isSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.CartComm#map(int[],boolean[]) int
method mpi.CartComm#neighborAllGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.CartComm#neighborAllGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.CartComm#neighborAllToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.CartComm#neighborAllToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.CartComm#pack(java.lang.Object,int,mpi.Datatype,byte[],int) int
method mpi.CartComm#packSize(int,mpi.Datatype) int
method mpi.CartComm#probe(int,int) mpi.Status
method mpi.CartComm#rSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.CartComm#rSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.CartComm#recv(java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.CartComm#recvInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.CartComm#reduce(java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.CartComm#reduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.CartComm#reduceScatter(java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.CartComm#reduceScatter(java.lang.Object,java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.CartComm#reduceScatterBlock(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#reduceScatterBlock(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#sSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.CartComm#sSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.CartComm#scan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#scan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.CartComm#scatter(java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#scatter(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#scatterv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.CartComm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.CartComm#send(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.CartComm#sendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.CartComm#sendRecv(java.lang.Object,int,mpi.Datatype,int,int,java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.CartComm#sendRecvReplace(java.lang.Object,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.CartComm#setAttr(int,java.lang.Object) void
method mpi.CartComm#setErrhandler(mpi.Errhandler) void
method mpi.CartComm#setInfo(mpi.Info) void
method mpi.CartComm#setName(java.lang.String) void
method mpi.CartComm#shift(int,int) mpi.ShiftParms
method mpi.CartComm#spawn(java.lang.String,java.lang.String[],int,mpi.Info,int,int[]) mpi.Intercomm
method mpi.CartComm#spawnMultiple(java.lang.String[],java.lang.String[][],int[],mpi.Info[],int,int[]) mpi.Intercomm
method mpi.CartComm#split(int,int) mpi.Intracomm
method mpi.CartComm#splitType(int,int,mpi.Info) mpi.Intracomm
method mpi.CartComm#sub(boolean[]) mpi.CartComm
method mpi.CartComm#unpack(byte[],int,java.lang.Object,int,mpi.Datatype) int
method mpi.CartParms#getCoord(int) int
method mpi.CartParms#getDim(int) int
method mpi.CartParms#getDimCount() int
method mpi.CartParms#getPeriod(int) boolean
method mpi.Comm#abort(int) void
method mpi.Comm#allGather(java.lang.Object,int,mpi.Datatype) void
method mpi.Comm#allGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Comm#allGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Comm#allGatherv(java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Comm#allReduce(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Comm#allReduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Comm#allToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Comm#allToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Comm#allToAllw(java.lang.Object,int[],int[],mpi.Datatype[],java.lang.Object,int[],int[],mpi.Datatype[]) void
method mpi.Comm#bSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Comm#bSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#barrier() void
method mpi.Comm#bcast(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#callErrhandler(int) void
method mpi.Comm#clone() mpi.Comm
method mpi.Comm#createIntercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Comm#deleteAttr(int) void
method mpi.Comm#disconnect() void
method mpi.Comm#dup() mpi.Comm
method mpi.Comm#dupWithInfo(mpi.Info) mpi.Comm
method mpi.Comm#free() void
method mpi.Comm#gather(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#gather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#gatherv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#gatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Comm#gatherv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Comm#getAttr(int) java.lang.Object
method mpi.Comm#getErrhandler() mpi.Errhandler
method mpi.Comm#getGroup() mpi.Group
method mpi.Comm#getInfo() mpi.Info
method mpi.Comm#getName() java.lang.String
method mpi.Comm#getRank() int
method mpi.Comm#getRequest() mpi.Request
method mpi.Comm#getSize() int
method mpi.Comm#getTopology() int
method mpi.Comm#iAllGather(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Comm#iAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Comm#iAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Comm#iAllGatherv(java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Comm#iAllReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iAllReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Comm#iAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Comm#iAllToAllw(java.nio.Buffer,int[],int[],mpi.Datatype[],java.nio.Buffer,int[],int[],mpi.Datatype[]) mpi.Request
method mpi.Comm#iBarrier() mpi.Request
method mpi.Comm#iBcast(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iDup() mpi.Comm
method mpi.Comm#iGather(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iGatherv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Comm#iGatherv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Comm#iNeighborAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Comm#iNeighborAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Comm#iNeighborAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Comm#iNeighborAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Comm#iProbe(int,int) mpi.Status
method mpi.Comm#iRecv(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#iReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Comm#iReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Comm#iReduceScatter(java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iReduceScatter(java.nio.Buffer,java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iReduceScatterBlock(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iReduceScatterBlock(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Comm#iScatter(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iScatter(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iScatterv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Comm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Comm#iSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#ibSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#irSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#isInter() boolean
method mpi.Comm#isNull() boolean
method mpi.Comm#isSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Comm#neighborAllGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Comm#neighborAllGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Comm#neighborAllToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Comm#neighborAllToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Comm#pack(java.lang.Object,int,mpi.Datatype,byte[],int) int
method mpi.Comm#packSize(int,mpi.Datatype) int
method mpi.Comm#probe(int,int) mpi.Status
method mpi.Comm#rSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Comm#rSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#recv(java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Comm#recvInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#reduce(java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Comm#reduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Comm#reduceScatter(java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Comm#reduceScatter(java.lang.Object,java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Comm#reduceScatterBlock(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Comm#reduceScatterBlock(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Comm#sSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Comm#sSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#scatter(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#scatter(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#scatterv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Comm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Comm#send(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Comm#sendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Comm#sendRecv(java.lang.Object,int,mpi.Datatype,int,int,java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Comm#sendRecvReplace(java.lang.Object,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Comm#setAttr(int,java.lang.Object) void
method mpi.Comm#setErrhandler(mpi.Errhandler) void
method mpi.Comm#setInfo(mpi.Info) void
method mpi.Comm#setName(java.lang.String) void
method mpi.Comm#unpack(byte[],int,java.lang.Object,int,mpi.Datatype) int
method mpi.Count#compareTo(java.lang.Object) int
method mpi.Count#equals(java.lang.Object) boolean
method mpi.Count#getCount() long
method mpi.Count#setCount(long) void
method mpi.Datatype#clone() mpi.Datatype
method mpi.Datatype#commit() void
method mpi.Datatype#deleteAttr(int) void
method mpi.Datatype#dup() mpi.Datatype
method mpi.Datatype#free() void
method mpi.Datatype#getAttr(int) java.lang.Object
method mpi.Datatype#getExtent() int
method mpi.Datatype#getLb() int
method mpi.Datatype#getName() java.lang.String
method mpi.Datatype#getSize() int
method mpi.Datatype#getTrueExtent() int
method mpi.Datatype#getTrueLb() int
method mpi.Datatype#isNull() boolean
method mpi.Datatype#setAttr(int,java.lang.Object) void
method mpi.Datatype#setName(java.lang.String) void
method mpi.DistGraphNeighbors#getDestination(int) int
method mpi.DistGraphNeighbors#getDestinationWeight(int) int
method mpi.DistGraphNeighbors#getInDegree() int
method mpi.DistGraphNeighbors#getOutDegree() int
method mpi.DistGraphNeighbors#getSource(int) int
method mpi.DistGraphNeighbors#getSourceWeight(int) int
method mpi.DistGraphNeighbors#isWeighted() boolean
method mpi.DoubleComplex#getBuffer() java.nio.DoubleBuffer
method mpi.DoubleComplex#getImag() double
method mpi.DoubleComplex#getReal() double
method mpi.DoubleComplex#putImag(double) void
method mpi.DoubleComplex#putReal(double) void
method mpi.DoubleInt#addByte() int
method mpi.DoubleInt#addByte(int) int
method mpi.DoubleInt#addChar() int
method mpi.DoubleInt#addChar(int) int
method mpi.DoubleInt#addData(mpi.Datatype) int
method mpi.DoubleInt#addData(mpi.Datatype,int) int
method mpi.DoubleInt#addDouble() int
method mpi.DoubleInt#addDouble(int) int
method mpi.DoubleInt#addFloat() int
method mpi.DoubleInt#addFloat(int) int
method mpi.DoubleInt#addInt() int
method mpi.DoubleInt#addInt(int) int
method mpi.DoubleInt#addLong() int
method mpi.DoubleInt#addLong(int) int
method mpi.DoubleInt#addShort() int
method mpi.DoubleInt#addShort(int) int
method mpi.DoubleInt#addStruct(mpi.Struct) int
method mpi.DoubleInt#addStruct(mpi.Struct,int) int
method mpi.DoubleInt#getData(byte[]) mpi.Struct$Data
method mpi.DoubleInt#getData(byte[],int) mpi.Struct$Data
method mpi.DoubleInt#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.DoubleInt#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.DoubleInt#getExtent() int
method mpi.DoubleInt#getType() mpi.Datatype
method mpi.DoubleInt#setOffset(int) mpi.Struct
method mpi.DoubleInt$Data#getBuffer() java.nio.ByteBuffer
method mpi.DoubleInt$Data#getIndex() int
method mpi.DoubleInt$Data#getValue() double
method mpi.DoubleInt$Data#putIndex(int) void
method mpi.DoubleInt$Data#putValue(double) void
method mpi.FloatComplex#getBuffer() java.nio.FloatBuffer
method mpi.FloatComplex#getImag() float
method mpi.FloatComplex#getReal() float
method mpi.FloatComplex#putImag(float) void
method mpi.FloatComplex#putReal(float) void
method mpi.FloatInt#addByte() int
method mpi.FloatInt#addByte(int) int
method mpi.FloatInt#addChar() int
method mpi.FloatInt#addChar(int) int
method mpi.FloatInt#addData(mpi.Datatype) int
method mpi.FloatInt#addData(mpi.Datatype,int) int
method mpi.FloatInt#addDouble() int
method mpi.FloatInt#addDouble(int) int
method mpi.FloatInt#addFloat() int
method mpi.FloatInt#addFloat(int) int
method mpi.FloatInt#addInt() int
method mpi.FloatInt#addInt(int) int
method mpi.FloatInt#addLong() int
method mpi.FloatInt#addLong(int) int
method mpi.FloatInt#addShort() int
method mpi.FloatInt#addShort(int) int
method mpi.FloatInt#addStruct(mpi.Struct) int
method mpi.FloatInt#addStruct(mpi.Struct,int) int
method mpi.FloatInt#getData(byte[]) mpi.Struct$Data
method mpi.FloatInt#getData(byte[],int) mpi.Struct$Data
method mpi.FloatInt#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.FloatInt#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.FloatInt#getExtent() int
method mpi.FloatInt#getType() mpi.Datatype
method mpi.FloatInt#setOffset(int) mpi.Struct
method mpi.FloatInt$Data#getBuffer() java.nio.ByteBuffer
method mpi.FloatInt$Data#getIndex() int
method mpi.FloatInt$Data#getValue() float
method mpi.FloatInt$Data#putIndex(int) void
method mpi.FloatInt$Data#putValue(float) void
method mpi.GraphComm#abort(int) void
method mpi.GraphComm#accept(java.lang.String,int) mpi.Intercomm
method mpi.GraphComm#accept(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.GraphComm#allGather(java.lang.Object,int,mpi.Datatype) void
method mpi.GraphComm#allGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.GraphComm#allGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.GraphComm#allGatherv(java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.GraphComm#allReduce(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#allReduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#allToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.GraphComm#allToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.GraphComm#allToAllw(java.lang.Object,int[],int[],mpi.Datatype[],java.lang.Object,int[],int[],mpi.Datatype[]) void
method mpi.GraphComm#bSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.GraphComm#bSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.GraphComm#barrier() void
method mpi.GraphComm#bcast(java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#callErrhandler(int) void
method mpi.GraphComm#clone() mpi.GraphComm
method mpi.GraphComm#connect(java.lang.String,int) mpi.Intercomm
method mpi.GraphComm#connect(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.GraphComm#create(mpi.Group) mpi.Intracomm
method mpi.GraphComm#createCart(int[],boolean[],boolean) mpi.CartComm
method mpi.GraphComm#createDistGraph(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.GraphComm#createDistGraph(int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.GraphComm#createDistGraphAdjacent(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.GraphComm#createDistGraphAdjacent(int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.GraphComm#createGraph(int[],int[],boolean) mpi.GraphComm
method mpi.GraphComm#createGroup(mpi.Group,int) mpi.Intracomm
method mpi.GraphComm#createIntercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.GraphComm#deleteAttr(int) void
method mpi.GraphComm#disconnect() void
method mpi.GraphComm#dup() mpi.GraphComm
method mpi.GraphComm#dupWithInfo(mpi.Info) mpi.GraphComm
method mpi.GraphComm#exScan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#exScan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#free() void
method mpi.GraphComm#gather(java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#gather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#gatherv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#gatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.GraphComm#gatherv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.GraphComm#getAttr(int) java.lang.Object
method mpi.GraphComm#getDims() mpi.GraphParms
method mpi.GraphComm#getDistGraphNeighbors() mpi.DistGraphNeighbors
method mpi.GraphComm#getErrhandler() mpi.Errhandler
method mpi.GraphComm#getGroup() mpi.Group
method mpi.GraphComm#getInfo() mpi.Info
method mpi.GraphComm#getName() java.lang.String
method mpi.GraphComm#getNeighbors(int) int[]
method mpi.GraphComm#getRank() int
method mpi.GraphComm#getRequest() mpi.Request
method mpi.GraphComm#getSize() int
method mpi.GraphComm#getTopology() int
method mpi.GraphComm#iAllGather(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllGatherv(java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iAllReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.GraphComm#iAllToAllw(java.nio.Buffer,int[],int[],mpi.Datatype[],java.nio.Buffer,int[],int[],mpi.Datatype[]) mpi.Request
method mpi.GraphComm#iBarrier() mpi.Request
method mpi.GraphComm#iBcast(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iDup() mpi.GraphComm
method mpi.GraphComm#iExScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iExScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iGather(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iGatherv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iGatherv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iNeighborAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.GraphComm#iNeighborAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.GraphComm#iNeighborAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.GraphComm#iNeighborAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.GraphComm#iProbe(int,int) mpi.Status
method mpi.GraphComm#iRecv(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.GraphComm#iReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.GraphComm#iReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.GraphComm#iReduceScatter(java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iReduceScatter(java.nio.Buffer,java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iReduceScatterBlock(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iReduceScatterBlock(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.GraphComm#iScatter(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iScatter(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iScatterv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.GraphComm#iSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.GraphComm#ibSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.GraphComm#irSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.GraphComm#isInter() boolean
method mpi.GraphComm#isNull() boolean
method mpi.GraphComm#isSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.GraphComm#map(int[],int[]) int
method mpi.GraphComm#neighborAllGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.GraphComm#neighborAllGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.GraphComm#neighborAllToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.GraphComm#neighborAllToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.GraphComm#pack(java.lang.Object,int,mpi.Datatype,byte[],int) int
method mpi.GraphComm#packSize(int,mpi.Datatype) int
method mpi.GraphComm#probe(int,int) mpi.Status
method mpi.GraphComm#rSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.GraphComm#rSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.GraphComm#recv(java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.GraphComm#recvInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.GraphComm#reduce(java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.GraphComm#reduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.GraphComm#reduceScatter(java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.GraphComm#reduceScatter(java.lang.Object,java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.GraphComm#reduceScatterBlock(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#reduceScatterBlock(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#sSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.GraphComm#sSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.GraphComm#scan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#scan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.GraphComm#scatter(java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#scatter(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#scatterv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.GraphComm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.GraphComm#send(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.GraphComm#sendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.GraphComm#sendRecv(java.lang.Object,int,mpi.Datatype,int,int,java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.GraphComm#sendRecvReplace(java.lang.Object,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.GraphComm#setAttr(int,java.lang.Object) void
method mpi.GraphComm#setErrhandler(mpi.Errhandler) void
method mpi.GraphComm#setInfo(mpi.Info) void
method mpi.GraphComm#setName(java.lang.String) void
method mpi.GraphComm#spawn(java.lang.String,java.lang.String[],int,mpi.Info,int,int[]) mpi.Intercomm
method mpi.GraphComm#spawnMultiple(java.lang.String[],java.lang.String[][],int[],mpi.Info[],int,int[]) mpi.Intercomm
method mpi.GraphComm#split(int,int) mpi.Intracomm
method mpi.GraphComm#splitType(int,int,mpi.Info) mpi.Intracomm
method mpi.GraphComm#unpack(byte[],int,java.lang.Object,int,mpi.Datatype) int
method mpi.GraphParms#getEdge(int) int
method mpi.GraphParms#getEdgeCount() int
method mpi.GraphParms#getIndex(int) int
method mpi.GraphParms#getIndexCount() int
method mpi.Group#excl(int[]) mpi.Group
method mpi.Group#free() void
method mpi.Group#getRank() int
method mpi.Group#getSize() int
method mpi.Group#incl(int[]) mpi.Group
method mpi.Group#isNull() boolean
method mpi.Group#rangeExcl(int[][]) mpi.Group
method mpi.Group#rangeIncl(int[][]) mpi.Group
method mpi.Info#clone() mpi.Info
method mpi.Info#delete(java.lang.String) void
method mpi.Info#dup() mpi.Info
method mpi.Info#free() void
method mpi.Info#get(java.lang.String) java.lang.String
method mpi.Info#getKey(int) java.lang.String
method mpi.Info#isNull() boolean
method mpi.Info#set(java.lang.String,java.lang.String) void
method mpi.Info#size() int
method mpi.Int2#addByte() int
method mpi.Int2#addByte(int) int
method mpi.Int2#addChar() int
method mpi.Int2#addChar(int) int
method mpi.Int2#addData(mpi.Datatype) int
method mpi.Int2#addData(mpi.Datatype,int) int
method mpi.Int2#addDouble() int
method mpi.Int2#addDouble(int) int
method mpi.Int2#addFloat() int
method mpi.Int2#addFloat(int) int
method mpi.Int2#addInt() int
method mpi.Int2#addInt(int) int
method mpi.Int2#addLong() int
method mpi.Int2#addLong(int) int
method mpi.Int2#addShort() int
method mpi.Int2#addShort(int) int
method mpi.Int2#addStruct(mpi.Struct) int
method mpi.Int2#addStruct(mpi.Struct,int) int
method mpi.Int2#getData(byte[]) mpi.Struct$Data
method mpi.Int2#getData(byte[],int) mpi.Struct$Data
method mpi.Int2#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.Int2#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.Int2#getExtent() int
method mpi.Int2#getType() mpi.Datatype
method mpi.Int2#setOffset(int) mpi.Struct
method mpi.Int2$Data#getBuffer() java.nio.ByteBuffer
method mpi.Int2$Data#getIndex() int
method mpi.Int2$Data#getValue() int
method mpi.Int2$Data#putIndex(int) void
method mpi.Int2$Data#putValue(int) void
method mpi.Intercomm#abort(int) void
method mpi.Intercomm#allGather(java.lang.Object,int,mpi.Datatype) void
method mpi.Intercomm#allGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intercomm#allGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intercomm#allGatherv(java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intercomm#allReduce(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intercomm#allReduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intercomm#allToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intercomm#allToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intercomm#allToAllw(java.lang.Object,int[],int[],mpi.Datatype[],java.lang.Object,int[],int[],mpi.Datatype[]) void
method mpi.Intercomm#bSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intercomm#bSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#barrier() void
method mpi.Intercomm#bcast(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#callErrhandler(int) void
method mpi.Intercomm#clone() mpi.Intercomm
method mpi.Intercomm#createIntercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Intercomm#deleteAttr(int) void
method mpi.Intercomm#disconnect() void
method mpi.Intercomm#dup() mpi.Intercomm
method mpi.Intercomm#dupWithInfo(mpi.Info) mpi.Intercomm
method mpi.Intercomm#free() void
method mpi.Intercomm#gather(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#gather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#gatherv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#gatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intercomm#gatherv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intercomm#getAttr(int) java.lang.Object
method mpi.Intercomm#getErrhandler() mpi.Errhandler
method mpi.Intercomm#getGroup() mpi.Group
method mpi.Intercomm#getInfo() mpi.Info
method mpi.Intercomm#getName() java.lang.String
method mpi.Intercomm#getRank() int
method mpi.Intercomm#getRemoteGroup() mpi.Group
method mpi.Intercomm#getRemoteSize() int
method mpi.Intercomm#getRequest() mpi.Request
method mpi.Intercomm#getSize() int
method mpi.Intercomm#getTopology() int
method mpi.Intercomm#iAllGather(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllGatherv(java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iAllReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intercomm#iAllToAllw(java.nio.Buffer,int[],int[],mpi.Datatype[],java.nio.Buffer,int[],int[],mpi.Datatype[]) mpi.Request
method mpi.Intercomm#iBarrier() mpi.Request
method mpi.Intercomm#iBcast(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iDup() mpi.Intercomm
method mpi.Intercomm#iGather(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iGatherv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iGatherv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iNeighborAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intercomm#iNeighborAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intercomm#iNeighborAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intercomm#iNeighborAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intercomm#iProbe(int,int) mpi.Status
method mpi.Intercomm#iRecv(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#iReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Intercomm#iReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Intercomm#iReduceScatter(java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iReduceScatter(java.nio.Buffer,java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iReduceScatterBlock(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iReduceScatterBlock(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intercomm#iScatter(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iScatter(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iScatterv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intercomm#iSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#ibSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#irSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#isInter() boolean
method mpi.Intercomm#isNull() boolean
method mpi.Intercomm#isSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intercomm#merge(boolean) mpi.Intracomm
method mpi.Intercomm#neighborAllGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intercomm#neighborAllGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intercomm#neighborAllToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intercomm#neighborAllToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intercomm#pack(java.lang.Object,int,mpi.Datatype,byte[],int) int
method mpi.Intercomm#packSize(int,mpi.Datatype) int
method mpi.Intercomm#probe(int,int) mpi.Status
method mpi.Intercomm#rSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intercomm#rSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#recv(java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intercomm#recvInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#reduce(java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Intercomm#reduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Intercomm#reduceScatter(java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Intercomm#reduceScatter(java.lang.Object,java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Intercomm#reduceScatterBlock(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intercomm#reduceScatterBlock(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intercomm#sSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intercomm#sSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#scatter(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#scatter(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#scatterv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intercomm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intercomm#send(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intercomm#sendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intercomm#sendRecv(java.lang.Object,int,mpi.Datatype,int,int,java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intercomm#sendRecvReplace(java.lang.Object,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Intercomm#setAttr(int,java.lang.Object) void
method mpi.Intercomm#setErrhandler(mpi.Errhandler) void
method mpi.Intercomm#setInfo(mpi.Info) void
method mpi.Intercomm#setName(java.lang.String) void
method mpi.Intercomm#unpack(byte[],int,java.lang.Object,int,mpi.Datatype) int
method mpi.Intracomm#abort(int) void
method mpi.Intracomm#accept(java.lang.String,int) mpi.Intercomm
method mpi.Intracomm#accept(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.Intracomm#allGather(java.lang.Object,int,mpi.Datatype) void
method mpi.Intracomm#allGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intracomm#allGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intracomm#allGatherv(java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intracomm#allReduce(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#allReduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#allToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intracomm#allToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intracomm#allToAllw(java.lang.Object,int[],int[],mpi.Datatype[],java.lang.Object,int[],int[],mpi.Datatype[]) void
method mpi.Intracomm#bSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intracomm#bSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#barrier() void
method mpi.Intracomm#bcast(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#callErrhandler(int) void
method mpi.Intracomm#clone() mpi.Intracomm
method mpi.Intracomm#connect(java.lang.String,int) mpi.Intercomm
method mpi.Intracomm#connect(java.lang.String,mpi.Info,int) mpi.Intercomm
method mpi.Intracomm#create(mpi.Group) mpi.Intracomm
method mpi.Intracomm#createCart(int[],boolean[],boolean) mpi.CartComm
method mpi.Intracomm#createDistGraph(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.Intracomm#createDistGraph(int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.Intracomm#createDistGraphAdjacent(int[],int[],int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.Intracomm#createDistGraphAdjacent(int[],int[],mpi.Info,boolean) mpi.GraphComm
method mpi.Intracomm#createGraph(int[],int[],boolean) mpi.GraphComm
method mpi.Intracomm#createGroup(mpi.Group,int) mpi.Intracomm
method mpi.Intracomm#createIntercomm(mpi.Comm,int,int,int) mpi.Intercomm
method mpi.Intracomm#deleteAttr(int) void
method mpi.Intracomm#disconnect() void
method mpi.Intracomm#dup() mpi.Intracomm
method mpi.Intracomm#dupWithInfo(mpi.Info) mpi.Intracomm
method mpi.Intracomm#exScan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#exScan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#free() void
method mpi.Intracomm#gather(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#gather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#gatherv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#gatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intracomm#gatherv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intracomm#getAttr(int) java.lang.Object
method mpi.Intracomm#getErrhandler() mpi.Errhandler
method mpi.Intracomm#getGroup() mpi.Group
method mpi.Intracomm#getInfo() mpi.Info
method mpi.Intracomm#getName() java.lang.String
method mpi.Intracomm#getRank() int
method mpi.Intracomm#getRequest() mpi.Request
method mpi.Intracomm#getSize() int
method mpi.Intracomm#getTopology() int
method mpi.Intracomm#iAllGather(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllGatherv(java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iAllReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intracomm#iAllToAllw(java.nio.Buffer,int[],int[],mpi.Datatype[],java.nio.Buffer,int[],int[],mpi.Datatype[]) mpi.Request
method mpi.Intracomm#iBarrier() mpi.Request
method mpi.Intracomm#iBcast(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iDup() mpi.Intracomm
method mpi.Intracomm#iExScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iExScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iGather(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iGatherv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iGatherv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iNeighborAllGather(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intracomm#iNeighborAllGatherv(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intracomm#iNeighborAllToAll(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Intracomm#iNeighborAllToAllv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int[],int[],mpi.Datatype) mpi.Request
method mpi.Intracomm#iProbe(int,int) mpi.Status
method mpi.Intracomm#iRecv(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#iReduce(java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Intracomm#iReduce(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op,int) mpi.Request
method mpi.Intracomm#iReduceScatter(java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iReduceScatter(java.nio.Buffer,java.nio.Buffer,int[],mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iReduceScatterBlock(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iReduceScatterBlock(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iScan(java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iScan(java.nio.Buffer,java.nio.Buffer,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Intracomm#iScatter(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iScatter(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iScatterv(java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iScatterv(java.nio.Buffer,int[],int[],mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int) mpi.Request
method mpi.Intracomm#iSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#ibSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#irSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#isInter() boolean
method mpi.Intracomm#isNull() boolean
method mpi.Intracomm#isSend(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Request
method mpi.Intracomm#neighborAllGather(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intracomm#neighborAllGatherv(java.lang.Object,int,mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intracomm#neighborAllToAll(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype) void
method mpi.Intracomm#neighborAllToAllv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int[],int[],mpi.Datatype) void
method mpi.Intracomm#pack(java.lang.Object,int,mpi.Datatype,byte[],int) int
method mpi.Intracomm#packSize(int,mpi.Datatype) int
method mpi.Intracomm#probe(int,int) mpi.Status
method mpi.Intracomm#rSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intracomm#rSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#recv(java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intracomm#recvInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#reduce(java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Intracomm#reduce(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op,int) void
method mpi.Intracomm#reduceScatter(java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Intracomm#reduceScatter(java.lang.Object,java.lang.Object,int[],mpi.Datatype,mpi.Op) void
method mpi.Intracomm#reduceScatterBlock(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#reduceScatterBlock(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#sSend(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intracomm#sSendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#scan(java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#scan(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method mpi.Intracomm#scatter(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#scatter(java.lang.Object,int,mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#scatterv(java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,int) void
method mpi.Intracomm#scatterv(java.lang.Object,int[],int[],mpi.Datatype,java.lang.Object,int,mpi.Datatype,int) void
method mpi.Intracomm#send(java.lang.Object,int,mpi.Datatype,int,int) void
method mpi.Intracomm#sendInit(java.nio.Buffer,int,mpi.Datatype,int,int) mpi.Prequest
method mpi.Intracomm#sendRecv(java.lang.Object,int,mpi.Datatype,int,int,java.lang.Object,int,mpi.Datatype,int,int) mpi.Status
method mpi.Intracomm#sendRecvReplace(java.lang.Object,int,mpi.Datatype,int,int,int,int) mpi.Status
method mpi.Intracomm#setAttr(int,java.lang.Object) void
method mpi.Intracomm#setErrhandler(mpi.Errhandler) void
method mpi.Intracomm#setInfo(mpi.Info) void
method mpi.Intracomm#setName(java.lang.String) void
method mpi.Intracomm#spawn(java.lang.String,java.lang.String[],int,mpi.Info,int,int[]) mpi.Intercomm
method mpi.Intracomm#spawnMultiple(java.lang.String[],java.lang.String[][],int[],mpi.Info[],int,int[]) mpi.Intercomm
method mpi.Intracomm#split(int,int) mpi.Intracomm
method mpi.Intracomm#splitType(int,int,mpi.Info) mpi.Intracomm
method mpi.Intracomm#unpack(byte[],int,java.lang.Object,int,mpi.Datatype) int
method mpi.LongInt#addByte() int
method mpi.LongInt#addByte(int) int
method mpi.LongInt#addChar() int
method mpi.LongInt#addChar(int) int
method mpi.LongInt#addData(mpi.Datatype) int
method mpi.LongInt#addData(mpi.Datatype,int) int
method mpi.LongInt#addDouble() int
method mpi.LongInt#addDouble(int) int
method mpi.LongInt#addFloat() int
method mpi.LongInt#addFloat(int) int
method mpi.LongInt#addInt() int
method mpi.LongInt#addInt(int) int
method mpi.LongInt#addLong() int
method mpi.LongInt#addLong(int) int
method mpi.LongInt#addShort() int
method mpi.LongInt#addShort(int) int
method mpi.LongInt#addStruct(mpi.Struct) int
method mpi.LongInt#addStruct(mpi.Struct,int) int
method mpi.LongInt#getData(byte[]) mpi.Struct$Data
method mpi.LongInt#getData(byte[],int) mpi.Struct$Data
method mpi.LongInt#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.LongInt#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.LongInt#getExtent() int
method mpi.LongInt#getType() mpi.Datatype
method mpi.LongInt#setOffset(int) mpi.Struct
method mpi.LongInt$Data#getBuffer() java.nio.ByteBuffer
method mpi.LongInt$Data#getIndex() int
method mpi.LongInt$Data#getValue() long
method mpi.LongInt$Data#putIndex(int) void
method mpi.LongInt$Data#putValue(long) void
method mpi.MPIException#addSuppressed(java.lang.Throwable) void
method mpi.MPIException#fillInStackTrace() java.lang.Throwable
method mpi.MPIException#getCause() java.lang.Throwable
method mpi.MPIException#getErrorClass() int
method mpi.MPIException#getErrorCode() int
method mpi.MPIException#getLocalizedMessage() java.lang.String
method mpi.MPIException#getMessage() java.lang.String
method mpi.MPIException#getStackTrace() java.lang.StackTraceElement[]
method mpi.MPIException#getSuppressed() java.lang.Throwable[]
method mpi.MPIException#initCause(java.lang.Throwable) java.lang.Throwable
method mpi.MPIException#printStackTrace() void
method mpi.MPIException#printStackTrace(java.io.PrintStream) void
method mpi.MPIException#printStackTrace(java.io.PrintWriter) void
method mpi.MPIException#setStackTrace(java.lang.StackTraceElement[]) void
method mpi.MPIException#toString() java.lang.String
method mpi.Message#imProbe(int,int,mpi.Comm) mpi.Status
method mpi.Message#imRecv(java.nio.Buffer,int,mpi.Datatype) mpi.Request
method mpi.Message#isNoProc() boolean
method mpi.Message#isNull() boolean
method mpi.Message#mProbe(int,int,mpi.Comm) mpi.Status
method mpi.Message#mRecv(java.lang.Object,int,mpi.Datatype) mpi.Status
method mpi.Op#free() void
method mpi.Op#isCommutative() boolean
method mpi.Op#isNull() boolean
method mpi.Prequest#cancel() void
method mpi.Prequest#free() void
method mpi.Prequest#getStatus() mpi.Status
method mpi.Prequest#isNull() boolean
method mpi.Prequest#start() void
method mpi.Prequest#test() boolean
method mpi.Prequest#testStatus() mpi.Status
method mpi.Prequest#waitFor() void
method mpi.Prequest#waitStatus() mpi.Status
method mpi.Request#cancel() void
method mpi.Request#free() void
method mpi.Request#getStatus() mpi.Status
method mpi.Request#isNull() boolean
method mpi.Request#test() boolean
method mpi.Request#testStatus() mpi.Status
method mpi.Request#waitFor() void
method mpi.Request#waitStatus() mpi.Status
method mpi.ShiftParms#getRankDest() int
method mpi.ShiftParms#getRankSource() int
method mpi.ShortInt#addByte() int
method mpi.ShortInt#addByte(int) int
method mpi.ShortInt#addChar() int
method mpi.ShortInt#addChar(int) int
method mpi.ShortInt#addData(mpi.Datatype) int
method mpi.ShortInt#addData(mpi.Datatype,int) int
method mpi.ShortInt#addDouble() int
method mpi.ShortInt#addDouble(int) int
method mpi.ShortInt#addFloat() int
method mpi.ShortInt#addFloat(int) int
method mpi.ShortInt#addInt() int
method mpi.ShortInt#addInt(int) int
method mpi.ShortInt#addLong() int
method mpi.ShortInt#addLong(int) int
method mpi.ShortInt#addShort() int
method mpi.ShortInt#addShort(int) int
method mpi.ShortInt#addStruct(mpi.Struct) int
method mpi.ShortInt#addStruct(mpi.Struct,int) int
method mpi.ShortInt#getData(byte[]) mpi.Struct$Data
method mpi.ShortInt#getData(byte[],int) mpi.Struct$Data
method mpi.ShortInt#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.ShortInt#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.ShortInt#getExtent() int
method mpi.ShortInt#getType() mpi.Datatype
method mpi.ShortInt#setOffset(int) mpi.Struct
method mpi.ShortInt$Data#getBuffer() java.nio.ByteBuffer
method mpi.ShortInt$Data#getIndex() int
method mpi.ShortInt$Data#getValue() short
method mpi.ShortInt$Data#putIndex(int) void
method mpi.ShortInt$Data#putValue(short) void
method mpi.Status#getCount(mpi.Datatype) int
method mpi.Status#getElements(mpi.Datatype) int
method mpi.Status#getElementsX(mpi.Datatype) mpi.Count
method mpi.Status#getError() int
method mpi.Status#getIndex() int
method mpi.Status#getSource() int
method mpi.Status#getTag() int
method mpi.Status#isCancelled() boolean
method mpi.Status#setCancelled(boolean) void
method mpi.Status#setElements(mpi.Datatype,int) void
method mpi.Status#setElementsX(mpi.Datatype,mpi.Count) void
method mpi.Struct#addByte() int
method mpi.Struct#addByte(int) int
method mpi.Struct#addChar() int
method mpi.Struct#addChar(int) int
method mpi.Struct#addData(mpi.Datatype) int
method mpi.Struct#addData(mpi.Datatype,int) int
method mpi.Struct#addDouble() int
method mpi.Struct#addDouble(int) int
method mpi.Struct#addFloat() int
method mpi.Struct#addFloat(int) int
method mpi.Struct#addInt() int
method mpi.Struct#addInt(int) int
method mpi.Struct#addLong() int
method mpi.Struct#addLong(int) int
method mpi.Struct#addShort() int
method mpi.Struct#addShort(int) int
method mpi.Struct#addStruct(mpi.Struct) int
method mpi.Struct#addStruct(mpi.Struct,int) int
method mpi.Struct#getData(byte[]) mpi.Struct$Data
method mpi.Struct#getData(byte[],int) mpi.Struct$Data
method mpi.Struct#getData(java.nio.ByteBuffer) mpi.Struct$Data
method mpi.Struct#getData(java.nio.ByteBuffer,int) mpi.Struct$Data
method mpi.Struct#getExtent() int
method mpi.Struct#getType() mpi.Datatype
method mpi.Struct#setOffset(int) mpi.Struct
method mpi.Struct$Data#getBuffer() java.nio.ByteBuffer
method mpi.UserFunction#call(java.lang.Object,java.lang.Object,int,mpi.Datatype) void
method mpi.UserFunction#call(java.nio.ByteBuffer,java.nio.ByteBuffer,int,mpi.Datatype) void
method mpi.Version#getSubVersion() int
method mpi.Version#getVersion() int
method mpi.Win#accumulate(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype,mpi.Op) void
method mpi.Win#attach(java.nio.Buffer,int) void
method mpi.Win#callErrhandler(int) void
method mpi.Win#compareAndSwap(java.nio.Buffer,java.nio.Buffer,java.nio.Buffer,mpi.Datatype,int,int) void
method mpi.Win#complete() void
method mpi.Win#deleteAttr(int) void
method mpi.Win#detach(java.nio.Buffer) void
method mpi.Win#fence(int) void
method mpi.Win#fetchAndOp(java.nio.Buffer,java.nio.Buffer,mpi.Datatype,int,int,mpi.Op) void
method mpi.Win#flush(int) void
method mpi.Win#flushAll() void
method mpi.Win#flushLocal(int) void
method mpi.Win#flushLocalAll() void
method mpi.Win#free() void
method mpi.Win#get(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype) void
method mpi.Win#getAccumulate(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype,mpi.Op) void
method mpi.Win#getAttr(int) java.lang.Object
method mpi.Win#getErrhandler() mpi.Errhandler
method mpi.Win#getGroup() mpi.Group
method mpi.Win#getInfo() mpi.Info
method mpi.Win#getName() java.lang.String
method mpi.Win#lock(int,int,int) void
method mpi.Win#lockAll(int) void
method mpi.Win#post(mpi.Group,int) void
method mpi.Win#put(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype) void
method mpi.Win#rAccumulate(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Win#rGet(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype) mpi.Request
method mpi.Win#rGetAccumulate(java.nio.Buffer,int,mpi.Datatype,java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype,mpi.Op) mpi.Request
method mpi.Win#rPut(java.nio.Buffer,int,mpi.Datatype,int,int,int,mpi.Datatype) mpi.Request
method mpi.Win#setAttr(int,java.lang.Object) void
method mpi.Win#setErrhandler(mpi.Errhandler) void
method mpi.Win#setInfo(mpi.Info) void
method mpi.Win#setName(java.lang.String) void
method mpi.Win#start(mpi.Group,int) void
method mpi.Win#sync() void
method mpi.Win#test() boolean
method mpi.Win#unlock(int) void
method mpi.Win#unlockAll() void
method mpi.Win#waitFor() void
method protected mpi.Struct$Data#getBuffer(mpi.Datatype,int) java.nio.ByteBuffer
method protected mpi.Struct$Data#getBuffer(mpi.Datatype,int,int) java.nio.ByteBuffer
method protected mpi.Struct$Data#getByte(int) byte
method protected mpi.Struct$Data#getByte(int,int) byte
method protected mpi.Struct$Data#getChar(int) char
method protected mpi.Struct$Data#getChar(int,int) char
method protected mpi.Struct$Data#getData(mpi.Struct,int) mpi.Struct$Data
method protected mpi.Struct$Data#getData(mpi.Struct,int,int) mpi.Struct$Data
method protected mpi.Struct$Data#getDouble(int) double
method protected mpi.Struct$Data#getDouble(int,int) double
method protected mpi.Struct$Data#getFloat(int) float
method protected mpi.Struct$Data#getFloat(int,int) float
method protected mpi.Struct$Data#getInt(int) int
method protected mpi.Struct$Data#getInt(int,int) int
method protected mpi.Struct$Data#getLong(int) long
method protected mpi.Struct$Data#getLong(int,int) long
method protected mpi.Struct$Data#getShort(int) short
method protected mpi.Struct$Data#getShort(int,int) short
method protected mpi.Struct$Data#putByte(int,byte) void
method protected mpi.Struct$Data#putByte(int,int,byte) void
method protected mpi.Struct$Data#putChar(int,char) void
method protected mpi.Struct$Data#putChar(int,int,char) void
method protected mpi.Struct$Data#putDouble(int,double) void
method protected mpi.Struct$Data#putDouble(int,int,double) void
method protected mpi.Struct$Data#putFloat(int,float) void
method protected mpi.Struct$Data#putFloat(int,int,float) void
method protected mpi.Struct$Data#putInt(int,int) void
method protected mpi.Struct$Data#putInt(int,int,int) void
method protected mpi.Struct$Data#putLong(int,int,long) void
method protected mpi.Struct$Data#putLong(int,long) void
method protected mpi.Struct$Data#putShort(int,int,short) void
method protected mpi.Struct$Data#putShort(int,short) void
method static mpi.CartComm#closePort(java.lang.String) void
method static mpi.CartComm#compare(mpi.Comm,mpi.Comm) int
method static mpi.CartComm#createDims(int,int[]) void
method static mpi.CartComm#createKeyval() int
method static mpi.CartComm#freeKeyval(int) void
method static mpi.CartComm#lookupName(java.lang.String) java.lang.String
method static mpi.CartComm#lookupName(java.lang.String,mpi.Info) java.lang.String
method static mpi.CartComm#openPort() java.lang.String
method static mpi.CartComm#openPort(mpi.Info) java.lang.String
method static mpi.CartComm#publishName(java.lang.String,java.lang.String) void
method static mpi.CartComm#publishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.CartComm#reduceLocal(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method static mpi.CartComm#unpublishName(java.lang.String,java.lang.String) void
method static mpi.CartComm#unpublishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.Comm#compare(mpi.Comm,mpi.Comm) int
method static mpi.Comm#createKeyval() int
method static mpi.Comm#freeKeyval(int) void
method static mpi.Comm#reduceLocal(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method static mpi.Datatype#createContiguous(int,mpi.Datatype) mpi.Datatype
method static mpi.Datatype#createHIndexed(int[],int[],mpi.Datatype) mpi.Datatype
method static mpi.Datatype#createHVector(int,int,int,mpi.Datatype) mpi.Datatype
method static mpi.Datatype#createIndexed(int[],int[],mpi.Datatype) mpi.Datatype
method static mpi.Datatype#createKeyval() int
method static mpi.Datatype#createResized(mpi.Datatype,int,int) mpi.Datatype
method static mpi.Datatype#createStruct(int[],int[],mpi.Datatype[]) mpi.Datatype
method static mpi.Datatype#createVector(int,int,int,mpi.Datatype) mpi.Datatype
method static mpi.Datatype#freeKeyval(int) void
method static mpi.DoubleComplex#get(double[]) mpi.DoubleComplex
method static mpi.DoubleComplex#get(double[],int) mpi.DoubleComplex
method static mpi.DoubleComplex#get(java.nio.ByteBuffer) mpi.DoubleComplex
method static mpi.DoubleComplex#get(java.nio.ByteBuffer,int) mpi.DoubleComplex
method static mpi.DoubleComplex#get(java.nio.DoubleBuffer) mpi.DoubleComplex
method static mpi.DoubleComplex#get(java.nio.DoubleBuffer,int) mpi.DoubleComplex
method static mpi.FloatComplex#get(float[]) mpi.FloatComplex
method static mpi.FloatComplex#get(float[],int) mpi.FloatComplex
method static mpi.FloatComplex#get(java.nio.ByteBuffer) mpi.FloatComplex
method static mpi.FloatComplex#get(java.nio.ByteBuffer,int) mpi.FloatComplex
method static mpi.FloatComplex#get(java.nio.FloatBuffer) mpi.FloatComplex
method static mpi.FloatComplex#get(java.nio.FloatBuffer,int) mpi.FloatComplex
method static mpi.GraphComm#closePort(java.lang.String) void
method static mpi.GraphComm#compare(mpi.Comm,mpi.Comm) int
method static mpi.GraphComm#createKeyval() int
method static mpi.GraphComm#freeKeyval(int) void
method static mpi.GraphComm#lookupName(java.lang.String) java.lang.String
method static mpi.GraphComm#lookupName(java.lang.String,mpi.Info) java.lang.String
method static mpi.GraphComm#openPort() java.lang.String
method static mpi.GraphComm#openPort(mpi.Info) java.lang.String
method static mpi.GraphComm#publishName(java.lang.String,java.lang.String) void
method static mpi.GraphComm#publishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.GraphComm#reduceLocal(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method static mpi.GraphComm#unpublishName(java.lang.String,java.lang.String) void
method static mpi.GraphComm#unpublishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.Group#compare(mpi.Group,mpi.Group) int
method static mpi.Group#difference(mpi.Group,mpi.Group) mpi.Group
method static mpi.Group#intersection(mpi.Group,mpi.Group) mpi.Group
method static mpi.Group#translateRanks(mpi.Group,int[],mpi.Group) int[]
method static mpi.Group#union(mpi.Group,mpi.Group) mpi.Group
method static mpi.Intercomm#compare(mpi.Comm,mpi.Comm) int
method static mpi.Intercomm#createKeyval() int
method static mpi.Intercomm#freeKeyval(int) void
method static mpi.Intercomm#getParent() mpi.Intercomm
method static mpi.Intercomm#reduceLocal(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method static mpi.Intracomm#closePort(java.lang.String) void
method static mpi.Intracomm#compare(mpi.Comm,mpi.Comm) int
method static mpi.Intracomm#createKeyval() int
method static mpi.Intracomm#freeKeyval(int) void
method static mpi.Intracomm#lookupName(java.lang.String) java.lang.String
method static mpi.Intracomm#lookupName(java.lang.String,mpi.Info) java.lang.String
method static mpi.Intracomm#openPort() java.lang.String
method static mpi.Intracomm#openPort(mpi.Info) java.lang.String
method static mpi.Intracomm#publishName(java.lang.String,java.lang.String) void
method static mpi.Intracomm#publishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.Intracomm#reduceLocal(java.lang.Object,java.lang.Object,int,mpi.Datatype,mpi.Op) void
method static mpi.Intracomm#unpublishName(java.lang.String,java.lang.String) void
method static mpi.Intracomm#unpublishName(java.lang.String,mpi.Info,java.lang.String) void
method static mpi.MPI#Finalize() void
method static mpi.MPI#Init(java.lang.String[]) java.lang.String[]
method static mpi.MPI#InitThread(java.lang.String[],int) int
method static mpi.MPI#attachBuffer(byte[]) void
method static mpi.MPI#detachBuffer() byte[]
method static mpi.MPI#getLibVersion() java.lang.String
method static mpi.MPI#getProcessorName() java.lang.String
method static mpi.MPI#getVersion() mpi.Version
method static mpi.MPI#isFinalized() boolean
method static mpi.MPI#isInitialized() boolean
method static mpi.MPI#isThreadMain() boolean
method static mpi.MPI#newByteBuffer(int) java.nio.ByteBuffer
method static mpi.MPI#newCharBuffer(int) java.nio.CharBuffer
method static mpi.MPI#newDoubleBuffer(int) java.nio.DoubleBuffer
method static mpi.MPI#newFloatBuffer(int) java.nio.FloatBuffer
method static mpi.MPI#newIntBuffer(int) java.nio.IntBuffer
method static mpi.MPI#newLongBuffer(int) java.nio.LongBuffer
method static mpi.MPI#newShortBuffer(int) java.nio.ShortBuffer
method static mpi.MPI#pControl(int,java.lang.Object) void
method static mpi.MPI#queryThread() int
method static mpi.MPI#slice(byte[],int) java.nio.ByteBuffer
method static mpi.MPI#slice(char[],int) java.nio.CharBuffer
method static mpi.MPI#slice(double[],int) java.nio.DoubleBuffer
method static mpi.MPI#slice(float[],int) java.nio.FloatBuffer
method static mpi.MPI#slice(int[],int) java.nio.IntBuffer
method static mpi.MPI#slice(java.nio.ByteBuffer,int) java.nio.ByteBuffer
method static mpi.MPI#slice(java.nio.CharBuffer,int) java.nio.CharBuffer
method static mpi.MPI#slice(java.nio.DoubleBuffer,int) java.nio.DoubleBuffer
method static mpi.MPI#slice(java.nio.FloatBuffer,int) java.nio.FloatBuffer
method static mpi.MPI#slice(java.nio.IntBuffer,int) java.nio.IntBuffer
method static mpi.MPI#slice(java.nio.LongBuffer,int) java.nio.LongBuffer
method static mpi.MPI#slice(java.nio.ShortBuffer,int) java.nio.ShortBuffer
method static mpi.MPI#slice(long[],int) java.nio.LongBuffer
method static mpi.MPI#slice(short[],int) java.nio.ShortBuffer
method static mpi.MPI#wtick() double
method static mpi.MPI#wtime() double
method static mpi.Prequest#startAll(mpi.Prequest[]) void
method static mpi.Prequest#testAll(mpi.Request[]) boolean
method static mpi.Prequest#testAllStatus(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#testAny(mpi.Request[]) int
method static mpi.Prequest#testAnyStatus(mpi.Request[]) mpi.Status
method static mpi.Prequest#testSome(mpi.Request[]) int[]
method static mpi.Prequest#testSomeStatus(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#waitAll(mpi.Request[]) void
method static mpi.Prequest#waitAllStatus(mpi.Request[]) mpi.Status[]
method static mpi.Prequest#waitAny(mpi.Request[]) int
method static mpi.Prequest#waitAnyStatus(mpi.Request[]) mpi.Status
method static mpi.Prequest#waitSome(mpi.Request[]) int[]
method static mpi.Prequest#waitSomeStatus(mpi.Request[]) mpi.Status[]
method static mpi.Request#testAll(mpi.Request[]) boolean
method static mpi.Request#testAllStatus(mpi.Request[]) mpi.Status[]
method static mpi.Request#testAny(mpi.Request[]) int
method static mpi.Request#testAnyStatus(mpi.Request[]) mpi.Status
method static mpi.Request#testSome(mpi.Request[]) int[]
method static mpi.Request#testSomeStatus(mpi.Request[]) mpi.Status[]
method static mpi.Request#waitAll(mpi.Request[]) void
method static mpi.Request#waitAllStatus(mpi.Request[]) mpi.Status[]
method static mpi.Request#waitAny(mpi.Request[]) int
method static mpi.Request#waitAnyStatus(mpi.Request[]) mpi.Status
method static mpi.Request#waitSome(mpi.Request[]) int[]
method static mpi.Request#waitSomeStatus(mpi.Request[]) mpi.Status[]
method static mpi.Win#createKeyval() int
method static mpi.Win#freeKeyval(int) void
