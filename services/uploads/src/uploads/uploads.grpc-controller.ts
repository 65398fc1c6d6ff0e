import { Controller, Inject } from '@nestjs/common';
import { common, uploads } from '@platform/proto';
import { UploadsService } from './uploads.service';

@Controller()
@uploads.UploadsServiceControllerMethods()
export class UploadsGrpcController implements uploads.UploadsServiceController {
  constructor(@Inject(UploadsService) private readonly uploads: UploadsService) {}

  createUpload(request: uploads.CreateUploadRequest): Promise<uploads.Upload> {
    return this.uploads.create(request);
  }

  getUpload(request: common.IdRequest): Promise<uploads.Upload> {
    return this.uploads.get(request.id);
  }

  listUploads(request: common.PageRequest): Promise<uploads.UploadList> {
    return this.uploads.list(request);
  }

  cancelUpload(request: common.IdRequest): Promise<uploads.Upload> {
    return this.uploads.cancel(request.id);
  }
}
